"""The data catalog: ``load_dataset(name, **params)``, ``list_datasets()``.

Modules: ``dataset`` (the Dataset container, type coercion checks), ``generators``
(waveform, LED, twonorm, Madelon-like), ``local`` (Parquet/ARFF/CSV files of a data directory),
``sklearn_source`` (scikit-learn's bundled sets), ``openml_source`` (OpenML by id with a Parquet
cache), ``entries`` (the catalog: names → sources, metadata; :func:`catalog` returns it).
Command line: ``python -m repro.datasets``.
"""

from .dataset import Dataset, DatasetUnavailableError, validate_frame
from .entries import Entry, catalog, get_entry, list_datasets, load_dataset
from .openml_source import default_cache_dir
from .openml_source import download as _download

__all__ = [
    "Dataset",
    "DatasetUnavailableError",
    "Entry",
    "catalog",
    "default_cache_dir",
    "fetch",
    "get_entry",
    "list_datasets",
    "load_dataset",
    "validate_frame",
]


def fetch(name: str, *, data_dir=None, cache_dir=None, force: bool = False, target=None):
    """Download the OpenML data set ``name`` into the cache; return its Parquet path.

    Returns None for entries that need no download (generator, sklearn, local file). Raises
    :class:`DatasetUnavailableError` when the entry has no OpenML id or the download fails.
    """
    from .openml_source import cache_paths, load_openml

    entry = get_entry(name, data_dir, cache_dir)
    if entry.source != "openml":
        return None
    if entry.openml_id is None:
        load_openml(entry.name, None, note=entry.notes)  # raises with the explanation
    parquet, _ = cache_paths(entry.openml_id, cache_dir)
    if parquet.is_file() and not force:
        return parquet
    return _download(entry.name, entry.openml_id, cache_dir, target)
