"""NumPy surface: NaN-aware reductions, order statistics (median/percentile/quantile), averages, cov/corrcoef, histograms, bincount/digitize, interp/gradient/trapezoid, partition/lexsort."""

__all__: list[str] = []
