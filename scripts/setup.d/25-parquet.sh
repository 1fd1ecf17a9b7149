# Parquet export (`sdnbench results export RUN -o samples.parquet`): pandas with the pyarrow engine,
# in the project venv. Idempotent: installs only what cannot be imported yet.
set -euo pipefail
cd "$SDNBENCH_REPO"
py=.venv/bin/python
if "$py" -c "import pandas, pyarrow" 2>/dev/null; then
    echo "    parquet: pandas $("$py" -c 'import pandas; print(pandas.__version__)'), pyarrow $("$py" -c 'import pyarrow; print(pyarrow.__version__)') already installed"
else
    echo "    parquet: installing pandas and pyarrow into .venv"
    .venv/bin/pip install -q "pandas>=2" "pyarrow>=14"
    "$py" -c "import pandas, pyarrow"
fi
