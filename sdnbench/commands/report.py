"""``sdnbench report RUN [RUN...]``: tables and plots of stored runs, in any format of --format.

RUN is a run id in the results store (or ``latest``), a Result JSON file, or a directory of
them. Several runs go into one report and are compared (gap tables and bars for two).
"""

from __future__ import annotations

from pathlib import Path

from ..outputs import Outputs
from ..errors import CheckFailed, UserError
from ..formats import FORMATS, add_flags, stdout_formats
from ..report.export import REPORT


def register(sub) -> None:
    p = sub.add_parser("report", help=f"write a report ({', '.join(REPORT.formats)}) of stored runs",
                       description=__doc__)
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="run id in the store, `latest`, or a Result JSON file/directory")
    add_flags(p, REPORT, short=True, metavar="PATH",
              default="without -o it is printed (" + ", ".join(stdout_formats(REPORT)) + ")",
              format_help="output format (default: from the -o file name, else md)")
    p.add_argument("--store", metavar="DIR", help="results store directory (default: ./sdnbench-results)")
    p.set_defaults(_store_read_only=True)      # reports only read: a read-only store is read
    p.add_argument("--title", help="report title")
    p.add_argument("--check", action="store_true",
                   help="render the HTML in headless Chromium, check every table and plot, and "
                        "keep a screenshot beside it (exit 2 if something is wrong)")
    p.set_defaults(func=run)


def run(args, outputs: Outputs) -> int:
    # Imported here: matplotlib and scipy cost a second, which every other command would pay.
    from ..report.builder import build
    from ..report.export import write
    from ..report.load import load_runs

    runs = load_runs(args.runs, Path(args.store) if args.store else None)
    if args.output:
        fmt = REPORT.format_for(args.output, args.format)
        from ..report.history import history_section     # earlier runs of the same scenario
        report = build(runs, title=args.title, with_plots=FORMATS[fmt].figures,
                       history=history_section(runs, args.store, FORMATS[fmt].figures))
        paths = write(report, Path(args.output), fmt)
        print(f"wrote {paths[0]}" + (f" (+{len(paths) - 1} figure files)" if len(paths) > 1 else ""))
        if args.check:
            _check(report, paths[0], fmt)
        return 0
    fmt = args.format or "md"
    if args.check:
        raise UserError("--check needs an HTML file: pass -o PATH.html")
    if not FORMATS[fmt].stdout:
        raise UserError(f"an {fmt.upper()} report needs a file: pass -o PATH{FORMATS[fmt].suffixes[0]}")
    report = build(runs, title=args.title, with_plots=False)
    print(REPORT.writer(fmt).render(report), end="")
    return 0


def _check(report, path: Path, fmt: str) -> None:
    if fmt != "html":
        raise UserError("--check renders HTML: write the report with -o PATH.html")
    from ..report.browser import check_page
    shot = path.with_suffix(".png")
    page = check_page(path, screenshot=shot)
    problems = page.problems(expect_tables=len(report.all_tables()),
                             expect_figures=len(report.all_figures()))
    print(f"checked in {page.chromium}: {len(page.tables)} tables, {len(page.figures)} plots; "
          f"screenshot {shot}")
    if problems:
        raise CheckFailed(f"{len(problems)} problem(s) in {path}: " + "; ".join(problems[:5]))
