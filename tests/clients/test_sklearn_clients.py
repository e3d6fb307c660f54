"""scikit-learn estimators and metrics on laxarray arrays (array_api_dispatch=True).

Oracle: the same estimator / metric on the NumPy copies of the inputs, without dispatch.
Each case checks that the result stays a laxarray array (sklearn really dispatched to
laxarray, no silent conversion to NumPy) and that it matches NumPy's answer.
"""

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

import array_api_compat  # noqa: E402
from sklearn import metrics  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.preprocessing import (  # noqa: E402
    KernelCenterer, LabelEncoder, MinMaxScaler, StandardScaler)

import laxarray as la  # noqa: E402

DTYPES = ["float32", "float64"]
TOL = {"float32": dict(rtol=2e-4, atol=2e-4), "float64": dict(rtol=1e-9, atol=1e-9)}


def _data(dtype):
    rng = np.random.default_rng(1234)
    X = rng.normal(size=(40, 5)) @ rng.normal(size=(5, 5)) + rng.normal(size=5)
    labels = (X[:, 0] + 0.5 * X[:, 1] > np.median(X[:, 0] + 0.5 * X[:, 1])).astype(np.int64)
    labels3 = np.digitize(X[:, 2], np.quantile(X[:, 2], [1 / 3, 2 / 3]))
    target = X @ rng.normal(size=5) + 0.1 * rng.normal(size=40)
    return X.astype(dtype), labels, labels3, target.astype(dtype)


def _is_laxarray(r):
    return array_api_compat.array_namespace(r) is la


def _check(result, expected, dtype):
    assert _is_laxarray(result), type(result)
    got = np.asarray(result)
    assert got.shape == np.shape(expected)
    if got.dtype.kind == "f":
        assert got.dtype == np.asarray(expected).dtype
        np.testing.assert_allclose(got, expected, **TOL[dtype])
    else:
        np.testing.assert_array_equal(got, expected)


def _align_signs(got, expected):
    """PCA components are defined up to sign: flip got's columns to match expected's."""
    signs = np.sign(np.sum(got * expected, axis=0))
    signs[signs == 0] = 1
    return got * signs


@pytest.mark.parametrize("dtype", DTYPES)
def test_pca(dtype):
    X, *_ = _data(dtype)
    ref = PCA(n_components=3, svd_solver="full").fit(X)
    with sklearn.config_context(array_api_dispatch=True):
        est = PCA(n_components=3, svd_solver="full").fit(la.asarray(X))
        Z = est.transform(la.asarray(X))
    _check(est.explained_variance_, ref.explained_variance_, dtype)
    _check(est.mean_, ref.mean_, dtype)
    assert _is_laxarray(Z)
    np.testing.assert_allclose(
        _align_signs(np.asarray(Z), ref.transform(X)), ref.transform(X), **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_linear_discriminant_analysis(dtype):
    X, _, labels3, _ = _data(dtype)
    ref = LinearDiscriminantAnalysis().fit(X, labels3)
    with sklearn.config_context(array_api_dispatch=True):
        est = LinearDiscriminantAnalysis().fit(la.asarray(X), la.asarray(labels3))
        pred = est.predict(la.asarray(X))
        proba = est.predict_proba(la.asarray(X))
    _check(pred, ref.predict(X), dtype)
    _check(proba, ref.predict_proba(X), dtype)
    _check(est.coef_, ref.coef_, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ridge(dtype):
    X, _, _, target = _data(dtype)
    ref = Ridge(alpha=0.5, solver="svd").fit(X, target)
    with sklearn.config_context(array_api_dispatch=True):
        est = Ridge(alpha=0.5, solver="svd").fit(la.asarray(X), la.asarray(target))
        pred = est.predict(la.asarray(X))
    _check(est.coef_, ref.coef_, dtype)
    _check(pred, ref.predict(X), dtype)


def _two_clusters(dtype):
    rng = np.random.default_rng(7)
    X = np.concatenate([rng.normal(size=(50, 3)), rng.normal(size=(50, 3)) + 4.0])
    return X.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
@pytest.mark.parametrize("init_params", ["random", "random_from_data"])
def test_gaussian_mixture(init_params, covariance_type, dtype):
    """The fit writes its covariance regularisation through a reshape view
    (``covariances_flat[:: n + 1] += reg_covar``): lost on a copy, it made NaN weights."""
    X = _two_clusters(dtype)
    kw = dict(n_components=2, covariance_type=covariance_type, init_params=init_params,
              random_state=0)
    ref = GaussianMixture(**kw).fit(X)
    with sklearn.config_context(array_api_dispatch=True):
        est = GaussianMixture(**kw).fit(la.asarray(X))
        labels = est.predict(la.asarray(X))
    assert est.n_iter_ == ref.n_iter_
    _check(est.weights_, ref.weights_, dtype)
    _check(est.means_, ref.means_, dtype)
    _check(est.covariances_, ref.covariances_, dtype)
    _check(labels, ref.predict(X), dtype)


def test_gaussian_mixture_kmeans_init_is_refused_by_scikit_learn():
    """scikit-learn allows only the random inits under dispatch (on every namespace,
    array_api_strict too): the refusal is scikit-learn's, not a laxarray error."""
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.raises(NotImplementedError, match="random_from_data"):
            GaussianMixture(2, init_params="kmeans").fit(la.asarray(_two_clusters("float64")))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scaler", [StandardScaler, MinMaxScaler], ids=lambda c: c.__name__)
def test_scalers(scaler, dtype):
    X, *_ = _data(dtype)
    ref = scaler().fit(X)
    with sklearn.config_context(array_api_dispatch=True):
        est = scaler().fit(la.asarray(X))
        Z = est.transform(la.asarray(X))
        back = est.inverse_transform(Z)
    _check(Z, ref.transform(X), dtype)
    _check(back, X, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_kernel_centerer(dtype):
    X, *_ = _data(dtype)
    K = (X[:10] @ X[:10].T).astype(dtype)
    ref = KernelCenterer().fit(K)
    with sklearn.config_context(array_api_dispatch=True):
        Z = KernelCenterer().fit(la.asarray(K)).transform(la.asarray(K))
    tol = dict(TOL[dtype], atol=TOL[dtype]["atol"] * float(np.abs(K).max()))
    assert _is_laxarray(Z)
    np.testing.assert_allclose(np.asarray(Z), ref.transform(K), **tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_label_encoder(dtype):
    raw = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], dtype=dtype)
    ref = LabelEncoder().fit(raw)
    with sklearn.config_context(array_api_dispatch=True):
        est = LabelEncoder().fit(la.asarray(raw))
        codes = est.transform(la.asarray(raw))
        back = est.inverse_transform(codes)
    _check(est.classes_, ref.classes_, dtype)
    _check(codes, ref.transform(raw), dtype)
    _check(back, raw, dtype)


# Metrics: name -> (function, kind of inputs). "cls": float-valued class labels (0., 1.)
# plus a sample_weight of the dtype; "reg": continuous targets; "score": labels + scores.
METRICS = {
    "accuracy_score": (metrics.accuracy_score, "cls"),
    "zero_one_loss": (metrics.zero_one_loss, "cls"),
    "f1_score": (metrics.f1_score, "cls"),
    "precision_score": (metrics.precision_score, "cls"),
    "confusion_matrix": (metrics.confusion_matrix, "cls"),
    "r2_score": (metrics.r2_score, "reg"),
    "mean_squared_error": (metrics.mean_squared_error, "reg"),
    "mean_absolute_error": (metrics.mean_absolute_error, "reg"),
    "explained_variance_score": (metrics.explained_variance_score, "reg"),
    "mean_absolute_percentage_error": (metrics.mean_absolute_percentage_error, "reg"),
    "roc_curve_all_thresholds": (
        lambda y, s, **kw: metrics.roc_curve(y, s, drop_intermediate=False, **kw), "score"),
}


def _metric_args(kind, dtype):
    X, labels, _, target = _data(dtype)
    rng = np.random.default_rng(7)
    weight = rng.uniform(0.5, 2.0, size=labels.shape).astype(dtype)
    if kind == "cls":
        pred = labels.copy()
        pred[::4] = 1 - pred[::4]
        return (labels.astype(dtype), pred.astype(dtype)), dict(sample_weight=weight)
    if kind == "reg":
        pred = target + rng.normal(scale=0.3, size=target.shape).astype(dtype)
        return (target, pred), dict(sample_weight=weight)
    scores = (X[:, 0] + rng.normal(scale=1.0, size=40)).astype(dtype)
    return (labels, scores), dict(sample_weight=weight)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(METRICS))
def test_metric(name, dtype):
    fn, kind = METRICS[name]
    args, kwargs = _metric_args(kind, dtype)
    expected = fn(*args, **kwargs)
    with sklearn.config_context(array_api_dispatch=True):
        got = fn(*(la.asarray(a) for a in args),
                 **{k: la.asarray(v) for k, v in kwargs.items()})
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _check(g, e, dtype)
    elif isinstance(expected, np.ndarray):
        _check(got, expected, dtype)
    else:  # scalar metrics come back as Python floats
        assert isinstance(got, float), type(got)
        np.testing.assert_allclose(got, expected, **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("metric", ["roc_curve", "roc_auc_score"])
def test_metric_roc_curve_drop_intermediate(metric, dtype):
    # roc_curve(drop_intermediate=True) calls xp.diff(x, 2) with n by position (NumPy's
    # order); array_api_strict raises TypeError there, laxarray accepts NumPy's order
    fn = getattr(metrics, metric)
    args, _ = _metric_args("score", dtype)
    expected = fn(*args)
    with sklearn.config_context(array_api_dispatch=True):
        got = fn(*(la.asarray(a) for a in args))
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _check(g, e, dtype)
    else:
        np.testing.assert_allclose(float(got), expected, **TOL[dtype])
