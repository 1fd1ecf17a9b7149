"""The results store: one SQLite file, ``DIR/results.sqlite`` (DIR defaults to ./sdnbench-results).

Every raw sample of every run is kept; summaries are computed from them (``sdnbench.stats``).

API tour (for the runner, the reports and single CLI commands)::

    from sdnbench.store import Store
    with Store("sdnbench-results") as st:           # creates/migrates the database
        for run in st.runs():                         # RunInfo: id, kind ('campaign'|'single'),
            print(run.id, run.name, run.counts)       #   name, scenario_text, seed, machine,
                                                      #   versions, status, counts {status: n}
        run = st.run("latest")                        # or st.run(3)
        for cell in st.cells(run.id):                 # CellInfo: benchmark, kind, params,
            print(cell.params, cell.status, cell.error)   # repetition, status, error, result_id
        for cell, result in st.results(run.id):       # (CellInfo, sdnbench.result.Result),
            ...                                       #   every finished cell, ok or failed
        result_id = st.save_result(result)            # a one-off Result -> a new 'single' run
        again = st.load_result(result_id)             # the same Result, samples bit for bit

Campaign side (``sdnbench.campaign.runner``): ``create_run`` → ``add_cells`` (the whole plan,
one transaction) → for each cell ``mark_running`` then ``finish_cell(cell_id, result)`` (the
result, its samples and the cell status in one transaction) → ``set_run_status(run, "done")``.

Measuring commands: ``sdnbench.store.cli.add_store_flag(parser)``; they store as campaigns do, a
cell at a time through the executor (``commands/_results.run_plan``), into a run of kind ``single``.

Layout: ``schema`` (tables and migrations; version in ``PRAGMA user_version``), ``codec``
(compact lossless sample encoding), ``store`` (the ``Store`` class), ``export`` (CSV/JSON/Parquet),
``faults`` (a full, read-only, locked or damaged store told apart, one line each: docs/storage-faults.md),
``reserve`` (room a writer keeps so a run the disk fills under is still marked).

Reading only (``results``, ``report``, ``compare``): ``Store(DIR, read_only=True)`` opens the file
read-only, so a store on a read-only mount or one this user cannot write is read.
"""

from .store import FAILED, OK, PENDING, RUNNING, CellInfo, CellSpec, RunInfo, Store

__all__ = ["Store", "RunInfo", "CellInfo", "CellSpec", "PENDING", "RUNNING", "OK", "FAILED"]
