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

The download is bounded (openml-python 0.15 sets no timeout and retries a failed connection with
growing pauses, 10-12 s before its error on a machine without network, forever on a network that
drops packets): every request of the download gets :func:`request_timeout` (5 s to connect,
``$REPRO_OPENML_TIMEOUT`` or 30 s without a byte from the server), and a server that cannot be
reached at all (no network, refused, DNS) is an error at once, without retries; openml-python
still retries the server's own transient errors.

openml-python's log says nothing a user of this package acts on at INFO ("No config file found at
…", "pickle write NAME", each request's URL and duration), and inside ``python -m repro`` it
reached the console through Hydra's root logger as ``[<date>][HYDRA] …`` lines: while openml runs
(:func:`_quiet_openml`), its INFO lines are dropped and a warning of it prints on one line as the
package's other warnings do, ``warning: MESSAGE (openml)``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from .dataset import Dataset, DatasetUnavailableError, as_labels, coerce_frame
from .local import pick_target

__all__ = [
    "cache_paths",
    "default_cache_dir",
    "download",
    "is_cached",
    "load_openml",
    "offline_mode",
    "request_timeout",
    "resolve_cache_dir",
]

#: seconds to open a connection to OpenML
CONNECT_TIMEOUT = 5.0
#: seconds without a byte from OpenML before a request fails (``$REPRO_OPENML_TIMEOUT``)
READ_TIMEOUT = 30.0


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


def request_timeout() -> tuple[float, float]:
    """(connect, read) timeouts in seconds of the download's requests: ``$REPRO_OPENML_TIMEOUT``
    (seconds, > 0) or :data:`READ_TIMEOUT` without a byte, at most :data:`CONNECT_TIMEOUT` to
    connect."""
    text = os.environ.get("REPRO_OPENML_TIMEOUT", "").strip()
    try:
        read = float(text) if text else READ_TIMEOUT
    except ValueError:
        read = -1.0
    if not read > 0:
        raise ValueError(f"REPRO_OPENML_TIMEOUT must be a number of seconds > 0, got {text!r}")
    return min(CONNECT_TIMEOUT, read), read


class OpenMLUnreachableError(OSError):
    """The OpenML server cannot be reached at all (raised at once, not retried)."""


class _ModuleWith:
    """A module with some of its attributes replaced (what openml's API module sees)."""

    def __init__(self, module, **replaced):
        self._module = module
        self.__dict__.update(replaced)

    def __getattr__(self, name):
        return getattr(self._module, name)


@contextlib.contextmanager
def _bounded_requests():
    """While active, openml-python's requests carry :func:`request_timeout` and a connection
    failure is an :class:`OpenMLUnreachableError` (openml retries only its server's errors);
    its MinIO downloads get the same timeouts. openml-python 0.15 offers no setting for either,
    so its API module is handed a ``requests`` (and ``minio``) with these defaults."""
    import certifi
    import minio
    import openml._api_calls as api
    import requests
    import urllib3

    timeout = request_timeout()

    class BoundedSession(requests.Session):
        def request(self, method, url, *args, **kwargs):
            if kwargs.get("timeout") is None:
                kwargs["timeout"] = timeout
            try:
                return super().request(method, url, *args, **kwargs)
            except requests.exceptions.ConnectionError as exc:  # refused, DNS, connect timeout
                raise OpenMLUnreachableError(f"cannot reach {url.split('?')[0]}: {exc}") from exc

    def bounded_minio(*args, http_client=None, **kwargs):
        if http_client is None:
            http_client = urllib3.PoolManager(
                timeout=urllib3.Timeout(connect=timeout[0], read=timeout[1]),
                retries=urllib3.Retry(total=2, backoff_factor=0.2),
                cert_reqs="CERT_REQUIRED",
                ca_certs=os.environ.get("SSL_CERT_FILE") or certifi.where(),
            )
        return minio.Minio(*args, http_client=http_client, **kwargs)

    saved = api.requests, api.minio
    api.requests = _ModuleWith(requests, Session=BoundedSession)
    api.minio = _ModuleWith(minio, Minio=bounded_minio)
    try:
        yield
    finally:
        api.requests, api.minio = saved


def _from_openml(record: logging.LogRecord) -> bool:
    """A log record of openml-python: of its loggers, or of the root logger called from its code
    (``logging.info`` in its request functions)."""
    name = record.name
    if name == "openml" or name.startswith("openml."):
        return True
    module = sys.modules.get("openml")
    folder = os.path.dirname(getattr(module, "__file__", None) or "") if module else ""
    return bool(folder) and (record.pathname or "").startswith(folder + os.sep)


class _OneLineWarning(logging.Handler):
    """openml's warnings (and errors) as ``warning: MESSAGE (openml)`` on one line on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            from repro.cli.console import terminal_text

            text = " ".join(terminal_text(record.getMessage()).split())
            sys.stderr.write(f"warning: {text} (openml)\n")
        except Exception:  # a closed stream: the run's own error says what matters
            self.handleError(record)


class _DropOpenML(logging.Filter):
    """Keeps the root logger's own records, not openml's (``logging.info`` in its request code):
    openml's warnings go to :class:`_OneLineWarning`, its INFO lines nowhere."""

    def __init__(self, handler: logging.Handler):
        super().__init__()
        self.handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        if not _from_openml(record):
            return True
        if record.levelno >= logging.WARNING:
            self.handler.handle(record)
        return False


@contextlib.contextmanager
def _quiet_openml():
    """While active (from openml's import, which logs, to the end of a download): openml's INFO
    and DEBUG lines are dropped, its warnings print as :class:`_OneLineWarning` writes them, and
    none reaches the root logger (where a Hydra run adds its ``[<date>][HYDRA]`` prefix)."""
    logger = logging.getLogger("openml")
    root = logging.getLogger()
    handler = _OneLineWarning(logging.WARNING)
    drop = _DropOpenML(handler)
    saved = logger.level, logger.propagate
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    logger.addHandler(handler)
    root.addFilter(drop)
    try:
        yield
    finally:
        root.removeFilter(drop)
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


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
        with _quiet_openml():  # from the import on, which logs
            import openml

            with _bounded_requests():
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
    summary = Dataset(name, X, labels).summary()  # validated there
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
        **summary,
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
