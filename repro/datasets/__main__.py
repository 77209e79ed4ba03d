"""Command line of the catalog: ``python -m repro.datasets list | show NAME | fetch NAME``.

Exit codes: 0 success, 1 data unavailable (download failed), 2 usage error (unknown
subcommand, data set or option).
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from . import fetch, get_entry, list_datasets, load_dataset
from .dataset import DatasetUnavailableError
from .exit_codes import exit_code


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--data-dir",
        default=argparse.SUPPRESS,
        help="folder of local data files (default: REPRO_DATA_DIR or the repository's datasets/)",
    )
    common.add_argument(
        "--cache-dir",
        default=argparse.SUPPRESS,
        help="OpenML cache folder (default: REPRO_OPENML_CACHE or ~/.cache/repro/openml)",
    )
    parser = argparse.ArgumentParser(
        prog="python -m repro.datasets",
        description="The repro data catalog.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="{list,show,fetch}")
    p_list = sub.add_parser("list", help="print the catalog", parents=[common])
    p_list.add_argument("--source", choices=["local", "generator", "sklearn", "openml"])
    p_list.add_argument("--offline", action="store_true", help="only data usable offline")
    p_show = sub.add_parser(
        "show", help="print one entry (and its class distribution)", parents=[common]
    )
    p_show.add_argument("name")
    p_fetch = sub.add_parser(
        "fetch", help="download an OpenML data set into the cache", parents=[common]
    )
    p_fetch.add_argument("name")
    p_fetch.add_argument("--force", action="store_true", help="download even if cached")
    return parser


def _fmt(value) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return "-"
    return str(value)


def _cmd_list(args) -> int:
    df = list_datasets(args.data_dir, args.cache_dir)
    if args.source:
        df = df[df["source"] == args.source]
    if args.offline:
        df = df[df["offline"]]
    table = pd.DataFrame(
        {
            "name": df["name"],
            "n": df["n"].map(_fmt),
            "numeric": df["n_numeric"].map(_fmt),
            "categorical": df["n_categorical"].map(_fmt),
            "classes": df["n_classes"].map(_fmt),
            "source": df["source"],
            "status": df["status"],
            "offline": df["offline"].map({True: "yes", False: "no"}),
        }
    )
    print(table.to_string(index=False))
    print(f"\n{len(table)} data sets, {int(df['offline'].sum())} available offline")
    return 0


def _cmd_show(args) -> int:
    entry = get_entry(args.name, args.data_dir, args.cache_dir)
    info = entry.as_dict()
    extra = info.pop("extra")
    info.update(extra)
    info["offline"] = entry.offline(args.cache_dir)
    width = max(map(len, info))
    for key, value in info.items():
        if key == "papers":
            value = ", ".join(value) or "-"
        print(f"{key:<{width}}  {_fmt(value) if value != {} else '-'}")
    if info["offline"]:
        ds = load_dataset(entry.name, data_dir=args.data_dir, cache_dir=args.cache_dir)
        counts = ds.class_counts()
        print(f"\n{ds!r}\nclass distribution:")
        for label, count in counts.items():
            print(f"  {label!s:<20} {count:>8}  {100 * count / ds.n_samples:5.1f}%")
    return 0


def _cmd_fetch(args) -> int:
    entry = get_entry(args.name, args.data_dir, args.cache_dir)
    path = fetch(entry.name, data_dir=args.data_dir, cache_dir=args.cache_dir, force=args.force)
    if path is None:
        print(f"{entry.name} is available offline (source {entry.source}); nothing to fetch.")
    else:
        print(f"{entry.name} (OpenML id {entry.openml_id}) is cached at {path}")
    return 0


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)  # exits with code 2 on an unknown subcommand/option
    args.data_dir = getattr(args, "data_dir", None)
    args.cache_dir = getattr(args, "cache_dir", None)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    command = {"list": _cmd_list, "show": _cmd_show, "fetch": _cmd_fetch}[args.command]
    return exit_code(lambda: command(args), (DatasetUnavailableError,))


if __name__ == "__main__":
    sys.exit(main())
