"""The ``sklearn`` workload: scikit-learn estimators and metrics on laxarray arrays.

Each task fits one estimator (``sklearn.set_config(array_api_dispatch=True)``) on one
``n_samples x n_features`` shape of :data:`GRID` and dtype, and predicts or transforms with
it; classifiers run on 2 and 3 classes.  The grid has one shape per bucket (every axis
rounded up to a power of two) that runs bucketed -- at most 2**15 elements once padded --
and avoids powers of two, so a user's 480x20 or 400x18 meets the executables made on
300x20 (the bucket 512x32).  Shapes that do not run bucketed compile per exact shape, so no
grid point would serve another shape: they are left out.  Metrics depend on ``n_samples``
only.  scikit-learn is imported in the worker, which sets ``SCIPY_ARRAY_API=1`` first
(SciPy reads it once, on import); an estimator that raises on laxarray is listed as skipped.
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

import laxarray.array_api as xp
from laxarray._core.buckets import bucket_shape
from laxarray.precompile.task import Task, device_dtypes
from laxarray._core import dtypes as _dt

#: n_samples: one per bucket 32 .. 2048 (none a power of two).
N_SAMPLES = (20, 50, 100, 200, 300, 700, 2000)
#: n_features: one per bucket 4 .. 128.
N_FEATURES = (3, 5, 10, 20, 50, 100)
DTYPES = ("float64", "float32")
#: The shapes of the grid: those that run bucketed.
GRID = tuple((n, p) for n in N_SAMPLES for p in N_FEATURES if bucket_shape((n, p)) is not None)


def _sklearn():
    import sklearn  # local: scikit-learn is optional (this workload needs it, laxarray not)
    sklearn.set_config(array_api_dispatch=True)
    return sklearn


def _sk(name):
    """scikit-learn's ``name`` (``"decomposition.PCA"``), imported when a workload runs:
    scikit-learn is optional, and this is the one place that imports it."""
    module, attr = name.rsplit(".", 1)
    return getattr(importlib.import_module(f"sklearn.{module}"), attr)


@functools.lru_cache(maxsize=None)
def _inputs(n, p, dtype, classes):
    """``X``, a regression target and a class label vector (int64) as laxarray arrays."""
    rng = np.random.default_rng(n * 1000 + p)
    X = rng.standard_normal((n, p))
    y = X @ rng.standard_normal(p) + 0.1 * rng.standard_normal(n)
    labels = np.searchsorted(np.quantile(y, np.linspace(0, 1, classes + 1)[1:-1]), y)
    return (xp.asarray(X.astype(dtype)), xp.asarray(y.astype(dtype)),
            xp.asarray(labels.astype(_dt.default_index())))


def _components(p):
    return min(5, p)


def _standard_scaler(X, y, c):
    StandardScaler = _sk("preprocessing.StandardScaler")
    return StandardScaler().fit_transform(X)


def _min_max_scaler(X, y, c):
    MinMaxScaler = _sk("preprocessing.MinMaxScaler")
    return MinMaxScaler().fit(X).transform(X)


def _pca(X, y, c):
    PCA = _sk("decomposition.PCA")
    model = PCA(n_components=_components(X.shape[1]))
    return model.fit_transform(X), model.transform(X)


def _pca_full(X, y, c):
    PCA = _sk("decomposition.PCA")
    return PCA(n_components=_components(X.shape[1]), svd_solver="full").fit(X).transform(X)


def _pca_randomized(X, y, c):
    PCA = _sk("decomposition.PCA")
    model = PCA(n_components=min(2, X.shape[1]), svd_solver="randomized", random_state=0)
    return model.fit_transform(X)


def _ridge(X, y, c):
    Ridge = _sk("linear_model.Ridge")
    return Ridge(solver="svd").fit(X, y).predict(X)


def _lda(X, y, c):
    LinearDiscriminantAnalysis = _sk("discriminant_analysis.LinearDiscriminantAnalysis")
    model = LinearDiscriminantAnalysis().fit(X, c)
    return model.predict(X), model.predict_proba(X)


def _logistic(X, y, c):
    LogisticRegression = _sk("linear_model.LogisticRegression")
    model = LogisticRegression().fit(X, c)
    return model.predict(X), model.predict_proba(X)


def _accuracy(X, y, c):
    accuracy_score = _sk("metrics.accuracy_score")
    return accuracy_score(c, xp.flip(c))


def _confusion(X, y, c):
    confusion_matrix = _sk("metrics.confusion_matrix")
    return confusion_matrix(c, xp.flip(c))


def _r2(X, y, c):
    from sklearn.metrics import r2_score  # local: scikit-learn is optional (see _sklearn)
    return r2_score(y, xp.flip(y))


def _mse(X, y, c):
    mean_squared_error = _sk("metrics.mean_squared_error")
    return mean_squared_error(y, xp.flip(y))


#: (kind, run(X, y, labels), class counts (None: labels unused), weight in compilations)
ESTIMATORS = (
    ("StandardScaler", _standard_scaler, None, 30),
    ("MinMaxScaler", _min_max_scaler, None, 12),
    ("PCA", _pca, None, 35),
    ("PCA(full)", _pca_full, None, 10),
    ("PCA(randomized)", _pca_randomized, None, 35),
    ("Ridge(svd)", _ridge, None, 20),
    ("LinearDiscriminantAnalysis", _lda, (2, 3), 50),
    ("LogisticRegression", _logistic, (2, 3), 30),
)
# Not KMeans: scikit-learn 1.9 does not run it through the array API (its k-means++ start
# mixes NumPy arrays with the input's, "Input arrays use different devices"; it fails on
# array_api_strict as well), so it compiled nothing and cost 72 failing calls.
METRICS = (
    ("accuracy_score", _accuracy, (2, 3), 3),
    ("confusion_matrix", _confusion, (2, 3), 5),
    ("r2_score", _r2, None, 15),
    ("mean_squared_error", _mse, None, 3),
)


def _call(run, n, p, dtype, classes):
    def call():
        _sklearn()
        return run(*_inputs(n, p, dtype, classes or 2))
    return lambda: [call]


def tasks() -> list[Task]:
    """The workload's tasks: each estimator on each grid shape and dtype, then the metrics on
    each ``n_samples``; a group is one bucket shape and dtype (their executables are shared)."""
    found = []
    for dtype in device_dtypes(DTYPES):
        for n, p in GRID:
            group = f"{dtype} {bucket_shape((n, p))}"
            for kind, run, counts, weight in ESTIMATORS:
                for k in counts or (None,):
                    label = f"{kind} {dtype} {n}x{p}" + (f" {k} classes" if k else "")
                    found.append(Task(label, kind, group, weight, _call(run, n, p, dtype, k)))
        for n in N_SAMPLES:
            if bucket_shape((n,)) is None:
                continue
            group = f"{dtype} {bucket_shape((n, N_FEATURES[0]))}"
            for kind, run, counts, weight in METRICS:
                for k in counts or (None,):
                    label = f"{kind} {dtype} {n}" + (f" {k} classes" if k else "")
                    found.append(Task(label, kind, group, weight,
                                      _call(run, n, N_FEATURES[0], dtype, k)))
    return found
