"""Data sets reached through OpenML by id (source ``openml``), behind our own Parquet cache.

Cache layout: ``<cache_dir>/<openml_id>.parquet`` (attributes, then the target column) and
``<cache_dir>/<openml_id>.json`` (target name, OpenML name/version, summary statistics). The
cache folder is the ``cache_dir`` argument, else ``$REPRO_OPENML_CACHE``, else
``~/.cache/repro/openml``. A Parquet file copied there by hand is enough (the target is then the
``class`` column, else the last one).

Loading reads the cache; when absent it downloads with
``openml.datasets.get_dataset(id, download_data=True).get_data(target=default_target)``,
converts (nominal → Categorical, numeric → float64, sparse → dense) and writes the cache
atomically (temporary file + ``os.replace``). Any failure of that download (no network, unknown
id, server error) becomes a :class:`DatasetUnavailableError` that says how to obtain the data.
``REPRO_OFFLINE=1`` (or ``download=False``) skips the download attempt.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from .dataset import Dataset, DatasetUnavailableError, as_labels, coerce_frame, validate_frame
from .local import pick_target

__all__ = [
    "cache_paths",
    "default_cache_dir",
    "download",
    "is_cached",
    "load_openml",
    "offline_mode",
    "resolve_cache_dir",
]


def default_cache_dir() -> Path:
    """``$REPRO_OPENML_CACHE`` or ``~/.cache/repro/openml``."""
    env = os.environ.get("REPRO_OPENML_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "repro" / "openml"


def resolve_cache_dir(cache_dir=None) -> Path:
    return Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()


def offline_mode() -> bool:
    """True when ``REPRO_OFFLINE`` is set to a true value (1, true, yes)."""
    return os.environ.get("REPRO_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def cache_paths(openml_id: int, cache_dir=None) -> tuple[Path, Path]:
    folder = resolve_cache_dir(cache_dir)
    return folder / f"{int(openml_id)}.parquet", folder / f"{int(openml_id)}.json"


def is_cached(openml_id: int, cache_dir=None) -> bool:
    return cache_paths(openml_id, cache_dir)[0].is_file()


def read_cache_meta(openml_id: int, cache_dir=None) -> dict:
    """The JSON sidecar of a cached data set ({} when absent or unreadable)."""
    path = cache_paths(openml_id, cache_dir)[1]
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _how_to_get(name: str, openml_id: int, parquet: Path) -> str:
    return (
        f"To get it: run `python -m repro.datasets fetch {name}` on a machine with network "
        f"access (then copy {parquet.name} and {parquet.with_suffix('.json').name} into "
        f"{parquet.parent}), or copy a Parquet file of the data (target column 'class' or last) "
        f"to {parquet}, or drop {name}.parquet/.arff/.csv into the data directory."
    )


def _densify(X: pd.DataFrame) -> pd.DataFrame:
    sparse = [c for c in X.columns if isinstance(X[c].dtype, pd.SparseDtype)]
    if sparse:
        X = X.copy()
        for c in sparse:
            X[c] = X[c].sparse.to_dense()
    return X


def download(name: str, openml_id: int, cache_dir=None, target=None) -> Path:
    """Download OpenML data set ``openml_id`` into the cache; return the Parquet path.

    Raises :class:`DatasetUnavailableError` when OpenML cannot be reached or refuses.
    """
    parquet, meta_path = cache_paths(openml_id, cache_dir)
    try:
        import openml

        remote = openml.datasets.get_dataset(
            int(openml_id),
            download_data=True,
            download_qualities=False,
            download_features_meta_data=False,
        )
        target = target or remote.default_target_attribute
        if not target or "," in str(target):
            raise ValueError(
                f"OpenML data set {openml_id} has no single default target "
                f"({remote.default_target_attribute!r}); pass target=COLUMN"
            )
        X, y, _, _ = remote.get_data(target=target, dataset_format="dataframe")
    except Exception as exc:  # network, server, parsing: all mean "not available here"
        raise DatasetUnavailableError(
            f"data set {name!r} (OpenML id {openml_id}) is not in the cache ({parquet}) and "
            f"could not be downloaded: {type(exc).__name__}: {exc}. "
            + _how_to_get(name, openml_id, parquet)
        ) from exc
    X = coerce_frame(_densify(pd.DataFrame(X)).reset_index(drop=True), name)
    labels = as_labels(pd.Series(y).reset_index(drop=True))
    validate_frame(X, labels, name)
    frame = X.copy()
    frame[target] = pd.Categorical([None if v is None else str(v) for v in labels])
    _atomic_write(parquet, lambda tmp: frame.to_parquet(tmp, index=False))
    meta = {
        "name": name,
        "openml_id": int(openml_id),
        "openml_name": getattr(remote, "name", None),
        "openml_version": getattr(remote, "version", None),
        "target": target,
        "url": f"https://www.openml.org/d/{int(openml_id)}",
        "fetched": datetime.now(UTC).isoformat(timespec="seconds"),
        **Dataset(name, X, labels).summary(),
    }
    _atomic_write(meta_path, lambda tmp: tmp.write_text(json.dumps(meta, indent=1, default=str)))
    return parquet


def load_openml(
    name: str,
    openml_id: int | None,
    cache_dir=None,
    target=None,
    download_missing=True,
    note: str = "",
) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """(X, y, cache metadata) of an OpenML catalog entry, from the cache or downloaded."""
    if openml_id is None:
        raise DatasetUnavailableError(
            f"data set {name!r} has no known OpenML id ({note or 'none recorded'}), so it cannot "
            f"be downloaded; drop {name}.parquet/.arff/.csv into the data directory "
            f"(REPRO_DATA_DIR or data_dir=) to use it."
        )
    parquet, _ = cache_paths(openml_id, cache_dir)
    if not parquet.is_file():
        if not download_missing or offline_mode():
            why = "REPRO_OFFLINE is set" if download_missing else "download=False"
            raise DatasetUnavailableError(
                f"data set {name!r} (OpenML id {openml_id}) is not in the cache ({parquet}) and "
                f"downloading is disabled ({why}). " + _how_to_get(name, openml_id, parquet)
            )
        download(name, openml_id, cache_dir, target)
    meta = read_cache_meta(openml_id, cache_dir)
    df = pd.read_parquet(parquet)
    if target is None and meta.get("target") in df.columns:
        target = meta["target"]
    column = pick_target(df.columns, target, name)
    X = coerce_frame(df.drop(columns=[column]), name)
    return X, as_labels(df[column]), {**meta, "cache_path": str(parquet), "target": column}
