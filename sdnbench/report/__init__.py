"""Reports: paper-style tables, plots and one file per format, from stored ``Result`` objects.

Layering (each layer only reads the one below it; only the exporters and ``load`` touch files):

- ``observations``: flattens ``Result`` objects into observations (factors + raw samples) and
  groups them into cells (a cell = one metric under one set of factors, over its repetitions).
- ``summary``: the statistics a report shows (a thin adapter over ``sdnbench.stats``).
- ``tables``: pure builders for the tables the studies print (per-switch × packet-size tables
  with avg/stdev/var rows, RFC 8456 per-trial tables, gap tables, best-scenario tables, report
  fields).
- ``plots``: matplotlib figures (Agg backend) rendered to PNG bytes, with a grayscale- and
  colour-blind-safe style.
- ``builder``: decides which tables and plots a set of runs calls for; returns a ``Report``.
- ``export_md``, ``export_csv``, ``export_json``, ``export_html``: one file per format; they only
  serialize a ``Report``.
- ``fields``: the RFC 8456 §4.8 report fields and each run's metadata header.
- ``load``: turns RUN arguments (store run ids or Result JSON files) into ``RunData``.
- ``browser``: renders an HTML report in headless Chromium (CDP over a pipe) and says what a
  reader would see: tables, plots and their sizes, console errors, network fetches.

Invariant: nothing here changes or deletes a stored result; reports are derived, never stored
instead of the raw samples.
"""

from .model import Figure, Report, RunData, Section, Table  # noqa: F401
