"""Random feature construction of the challenge entries of boulle2007 §8.2.

"10k F(2D): 10 000 features constructed for each data set, each one is the sum of two randomly
selected initial features"; 100k F(2D); 10k F(3D) (sums of three). :class:`FeatureConstruction`
appends ``n_features`` such sums to the data. The operands of a constructed feature are distinct
original numeric features drawn uniformly (a pair may be drawn again for another constructed
feature, as independent draws do); missing operands give a missing sum. The constructed columns are
float32 and computed in blocks of ``block_size`` columns written into the preallocated output,
so the peak memory is the output plus one block (100k × 4000 float32 = 1.6 GB).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data


class FeatureConstruction(TransformerMixin, BaseEstimator):
    """Append random sums of ``order`` original numeric features (F(2D), F(3D)).

    Parameters
    ----------
    n_features : int, default 10000
        Number F of constructed features.
    order : int, default 2
        Number of original features summed (2 → F(2D), 3 → F(3D)).
    random_state : int or None, default 0
    block_size : int, default 1024
        Constructed columns computed per block.

    Attributes
    ----------
    operands_ : ndarray (F, order), indices (in the input columns) of the summed features
    numeric_columns_ : ndarray, indices of the numeric input columns eligible as operands

    Input: an array (all columns numeric) or a DataFrame (numeric-dtype columns are operands,
    the others are passed through). Output: a float32 array (original columns first), or for a
    DataFrame the original frame with float32 columns ``F2D_0, F2D_1, …`` appended.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> FeatureConstruction(n_features=5, random_state=0).fit_transform(X).shape
    (4, 8)
    """

    def __init__(self, n_features=10000, order=2, random_state=0, block_size=1024):
        self.n_features = n_features
        self.order = order
        self.random_state = random_state
        self.block_size = block_size

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.transformer_tags.preserves_dtype = ["float32"]  # output is float32 by design
        return tags

    def _validate(self, X, reset: bool):
        if isinstance(X, pd.DataFrame):
            validate_data(self, X, skip_check_array=True, reset=reset)
            return X
        return validate_data(self, X, ensure_all_finite="allow-nan", reset=reset)

    def _numeric(self, X) -> np.ndarray:
        if isinstance(X, pd.DataFrame):
            return np.flatnonzero(
                [
                    pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t)
                    for t in X.dtypes
                ]
            )
        return np.arange(np.shape(X)[1])

    def fit(self, X, y=None):
        for name, minimum in (("n_features", 0), ("order", 1), ("block_size", 1)):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | np.integer)
                or value < minimum
            ):
                raise ValueError(f"{name} must be an integer ≥ {minimum}, got {value!r}")
        X = self._validate(X, reset=True)
        self.numeric_columns_ = self._numeric(X)
        n_num = self.numeric_columns_.size
        if n_num < self.order:
            raise ValueError(
                f"F({self.order}D) construction needs at least {self.order} numeric features, "
                f"the data have {n_num} feature(s)"
            )
        rng = np.random.default_rng(self.random_state)
        ops = np.empty((self.n_features, self.order), dtype=np.int64)
        todo = np.arange(self.n_features)
        while todo.size:  # redraw the rows whose operands are not distinct
            ops[todo] = rng.integers(0, n_num, size=(todo.size, self.order))
            srt = np.sort(ops[todo], axis=1)
            todo = todo[(srt[:, 1:] == srt[:, :-1]).any(axis=1)]
        self.operands_ = self.numeric_columns_[ops]
        return self

    def _names(self):
        return [f"F{self.order}D_{i}" for i in range(self.n_features)]

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "operands_")
        if input_features is None:
            input_features = getattr(
                self, "feature_names_in_", [f"x{i}" for i in range(self.n_features_in_)]
            )
        return np.asarray(list(input_features) + self._names(), dtype=object)

    def transform(self, X):
        check_is_fitted(self, "operands_")
        X = self._validate(X, reset=False)
        is_frame = isinstance(X, pd.DataFrame)
        source = (
            X.iloc[:, self.numeric_columns_].to_numpy(dtype=np.float32)
            if is_frame
            else np.asarray(X, dtype=np.float32)
        )
        # operands as columns of `source`
        position = np.full(self.n_features_in_, -1)
        position[self.numeric_columns_ if is_frame else np.arange(self.n_features_in_)] = np.arange(
            source.shape[1]
        )
        ops = position[self.operands_]
        n = source.shape[0]
        offset = 0 if is_frame else self.n_features_in_
        out = np.empty((n, offset + self.n_features), dtype=np.float32)
        if not is_frame:
            out[:, :offset] = source
        src_t = np.ascontiguousarray(source.T)  # operand rows contiguous
        for start in range(0, self.n_features, self.block_size):
            stop = min(start + self.block_size, self.n_features)
            block = src_t[ops[start:stop, 0]].copy()
            for r in range(1, self.order):
                block += src_t[ops[start:stop, r]]
            out[:, offset + start : offset + stop] = block.T
        if not is_frame:
            return out
        constructed = pd.DataFrame(out, index=X.index, columns=self._names(), copy=False)
        return pd.concat([X, constructed], axis=1)
