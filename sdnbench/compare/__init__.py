"""Comparisons of two runs (or two narrowings of one run, or Result files), cell by cell.

- ``samples``: sources → ``Side`` (groups of raw samples per configuration and metric);
- ``core``: ``compare(a, b)`` → rows with means, gap, ratio, Mann–Whitney mark; ``gate`` for
  ``--fail-on METRIC:PCT``;
- ``render``: terminal table, Markdown, CSV, JSON, transposed (the campus study's Table 3 shape).

``COMPARISON`` offers render's formats to the command; render is named, not imported, so that the
command's help loads no scipy.
"""

from ..formats import Output

COMPARISON = Output("the comparison", {f: "sdnbench.compare.render:render" for f in ("txt", "md", "csv", "json")})
