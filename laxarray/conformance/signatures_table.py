"""The standard's function signatures (Array API 2025.12), as its stubs write them.

Generated from the standard's stubs directory (``array-api-2025.12/stubs``: one markdown
file per chapter, one ``## `name(params) -> type``` header per function) by
:func:`laxarray.conformance.signatures.stub_signatures`; the function chapters and the
``linalg`` and ``fft`` extensions (dotted names), not the array object's methods.
``tests/conformance_runner/test_signatures_drawn.py`` checks it against the parameter
table of ``tests/data`` (the stubs parsed by ``tools/gen_signatures.py``): the same names,
kinds of parameter and defaults.
"""

STANDARD = {
    'abs': 'abs(x: array, /) -> array',
    'acos': 'acos(x: array, /) -> array',
    'acosh': 'acosh(x: array, /) -> array',
    'add':
        'add(x1: Union[array, int, float, complex], x2: Union[array, int, float, complex], '
        '/) -> array',
    'all':
        'all(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'any':
        'any(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'arange':
        'arange(start: Union[int, float], /, stop: Optional[Union[int, float]]=None, '
        'step: Union[int, float]=1, *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'argmax':
        'argmax(x: array, /, *, axis: Optional[int]=None, keepdims: bool=False) -> array',
    'argmin':
        'argmin(x: array, /, *, axis: Optional[int]=None, keepdims: bool=False) -> array',
    'argsort':
        'argsort(x: array, /, *, axis: int=-1, descending: bool=False, '
        'stable: bool=True) -> array',
    'asarray':
        'asarray(obj: Union[array, bool, int, float, complex, NestedSequence, '
        'SupportsBufferProtocol], /, *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None, copy: Optional[bool]=None) -> array',
    'asin': 'asin(x: array, /) -> array',
    'asinh': 'asinh(x: array, /) -> array',
    'astype':
        'astype(x: array, dtype: dtype, /, *, copy: bool=True, '
        'device: Optional[device]=None) -> array',
    'atan': 'atan(x: array, /) -> array',
    'atan2': 'atan2(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'atanh': 'atanh(x: array, /) -> array',
    'bitwise_and':
        'bitwise_and(x1: Union[array, int, bool], x2: Union[array, int, bool], /) -> array',
    'bitwise_invert': 'bitwise_invert(x: array, /) -> array',
    'bitwise_left_shift':
        'bitwise_left_shift(x1: Union[array, int], x2: Union[array, int], /) -> array',
    'bitwise_or':
        'bitwise_or(x1: Union[array, int, bool], x2: Union[array, int, bool], /) -> array',
    'bitwise_right_shift':
        'bitwise_right_shift(x1: Union[array, int], x2: Union[array, int], /) -> array',
    'bitwise_xor':
        'bitwise_xor(x1: Union[array, int, bool], x2: Union[array, int, bool], /) -> array',
    'broadcast_arrays': 'broadcast_arrays(*arrays: array) -> Tuple[array, ...]',
    'broadcast_shapes':
        'broadcast_shapes(*shapes: Tuple[Optional[int], ...]) -> Tuple[Optional[int], ...]',
    'broadcast_to': 'broadcast_to(x: array, /, shape: Tuple[int, ...]) -> array',
    'can_cast': 'can_cast(from_: Union[dtype, array], to: dtype, /) -> bool',
    'ceil': 'ceil(x: array, /) -> array',
    'clip':
        'clip(x: array, /, min: Optional[Union[int, float, array]]=None, '
        'max: Optional[Union[int, float, array]]=None) -> array',
    'concat':
        'concat(arrays: Union[Tuple[array, ...], List[array]], /, *, '
        'axis: Optional[int]=0) -> array',
    'conj': 'conj(x: array, /) -> array',
    'copysign':
        'copysign(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'cos': 'cos(x: array, /) -> array',
    'cosh': 'cosh(x: array, /) -> array',
    'count_nonzero':
        'count_nonzero(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'cumulative_prod':
        'cumulative_prod(x: array, /, *, axis: Optional[int]=None, '
        'dtype: Optional[dtype]=None, include_initial: bool=False) -> array',
    'cumulative_sum':
        'cumulative_sum(x: array, /, *, axis: Optional[int]=None, '
        'dtype: Optional[dtype]=None, include_initial: bool=False) -> array',
    'diff':
        'diff(x: array, /, *, axis: int=-1, n: int=1, prepend: Optional[array]=None, '
        'append: Optional[array]=None) -> array',
    'divide':
        'divide(x1: Union[array, int, float, complex], x2: Union[array, int, float, '
        'complex], /) -> array',
    'empty':
        'empty(shape: Union[int, Tuple[int, ...]], *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'empty_like':
        'empty_like(x: array, /, *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'equal':
        'equal(x1: Union[array, int, float, complex, bool], x2: Union[array, int, float, '
        'complex, bool], /) -> array',
    'exp': 'exp(x: array, /) -> array',
    'expand_dims': 'expand_dims(x: array, /, axis: Union[int, Tuple[int, ...]]) -> array',
    'expm1': 'expm1(x: array, /) -> array',
    'eye':
        'eye(n_rows: int, n_cols: Optional[int]=None, /, *, k: int=0, '
        'dtype: Optional[dtype]=None, device: Optional[device]=None) -> array',
    'fft.fft':
        "fft(x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: Literal['backward', "
        "'ortho', 'forward']='backward') -> array",
    'fft.fftfreq':
        'fftfreq(n: int, /, *, d: float=1.0, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'fft.fftn':
        'fftn(x: array, /, *, s: Optional[Sequence[int]]=None, '
        "axes: Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
        "'forward']='backward') -> array",
    'fft.fftshift':
        'fftshift(x: array, /, *, axes: Optional[Union[int, Sequence[int]]]=None) -> array',
    'fft.hfft':
        "hfft(x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: Literal['backward', "
        "'ortho', 'forward']='backward') -> array",
    'fft.ifft':
        "ifft(x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: Literal['backward', "
        "'ortho', 'forward']='backward') -> array",
    'fft.ifftn':
        'ifftn(x: array, /, *, s: Optional[Sequence[int]]=None, '
        "axes: Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
        "'forward']='backward') -> array",
    'fft.ifftshift':
        'ifftshift(x: array, /, *, axes: Optional[Union[int, Sequence[int]]]=None) -> array',
    'fft.ihfft':
        'ihfft(x: array, /, *, n: Optional[int]=None, axis: int=-1, '
        "norm: Literal['backward', 'ortho', 'forward']='backward') -> array",
    'fft.irfft':
        'irfft(x: array, /, *, n: Optional[int]=None, axis: int=-1, '
        "norm: Literal['backward', 'ortho', 'forward']='backward') -> array",
    'fft.irfftn':
        'irfftn(x: array, /, *, s: Optional[Sequence[int]]=None, '
        "axes: Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
        "'forward']='backward') -> array",
    'fft.rfft':
        "rfft(x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: Literal['backward', "
        "'ortho', 'forward']='backward') -> array",
    'fft.rfftfreq':
        'rfftfreq(n: int, /, *, d: float=1.0, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'fft.rfftn':
        'rfftn(x: array, /, *, s: Optional[Sequence[int]]=None, '
        "axes: Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
        "'forward']='backward') -> array",
    'finfo': 'finfo(type: Union[dtype, array], /) -> finfo_object',
    'flip': 'flip(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None) -> array',
    'floor': 'floor(x: array, /) -> array',
    'floor_divide':
        'floor_divide(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'from_dlpack':
        'from_dlpack(x: object, /, *, device: Optional[device]=None, '
        'copy: Optional[bool]=None) -> array',
    'full':
        'full(shape: Union[int, Tuple[int, ...]], fill_value: Union[bool, int, float, '
        'complex], *, dtype: Optional[dtype]=None, device: Optional[device]=None) -> array',
    'full_like':
        'full_like(x: array, /, fill_value: Union[bool, int, float, complex], *, '
        'dtype: Optional[dtype]=None, device: Optional[device]=None) -> array',
    'greater':
        'greater(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'greater_equal':
        'greater_equal(x1: Union[array, int, float], x2: Union[array, int, float], '
        '/) -> array',
    'hypot': 'hypot(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'iinfo': 'iinfo(type: Union[dtype, array], /) -> iinfo_object',
    'imag': 'imag(x: array, /) -> array',
    'isdtype':
        'isdtype(dtype: dtype, kind: Union[dtype, str, Tuple[Union[dtype, str], '
        '...]]) -> bool',
    'isfinite': 'isfinite(x: array, /) -> array',
    'isin':
        'isin(x1: Union[array, int], x2: Union[array, int], /, *, '
        'invert: bool=False) -> array',
    'isinf': 'isinf(x: array, /) -> array',
    'isnan': 'isnan(x: array, /) -> array',
    'less': 'less(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'less_equal':
        'less_equal(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'linalg.cholesky': 'cholesky(x: array, /, *, upper: bool=False) -> array',
    'linalg.cross': 'cross(x1: array, x2: array, /, *, axis: int=-1) -> array',
    'linalg.det': 'det(x: array, /) -> array',
    'linalg.diagonal': 'diagonal(x: array, /, *, offset: int=0) -> array',
    'linalg.eig': 'eig(x: array, /) -> Tuple[array, array]',
    'linalg.eigh': 'eigh(x: array, /) -> Tuple[array, array]',
    'linalg.eigvals': 'eigvals(x: array, /) -> array',
    'linalg.eigvalsh': 'eigvalsh(x: array, /) -> array',
    'linalg.inv': 'inv(x: array, /) -> array',
    'linalg.matmul': 'matmul(x1: array, x2: array, /) -> array',
    'linalg.matrix_norm':
        'matrix_norm(x: array, /, *, keepdims: bool=False, ord: Optional[Union[int, float, '
        "Literal[inf, -inf, 'fro', 'nuc']]]='fro') -> array",
    'linalg.matrix_power': 'matrix_power(x: array, n: int, /) -> array',
    'linalg.matrix_rank':
        'matrix_rank(x: array, /, *, rtol: Optional[Union[float, array]]=None) -> array',
    'linalg.matrix_transpose': 'matrix_transpose(x: array, /) -> array',
    'linalg.outer': 'outer(x1: array, x2: array, /) -> array',
    'linalg.pinv': 'pinv(x: array, /, *, rtol: Optional[Union[float, array]]=None) -> array',
    'linalg.qr':
        "qr(x: array, /, *, mode: Literal['reduced', 'complete']='reduced') -> Tuple[array, "
        'array]',
    'linalg.slogdet': 'slogdet(x: array, /) -> Tuple[array, array]',
    'linalg.solve': 'solve(x1: array, x2: array, /) -> array',
    'linalg.svd':
        'svd(x: array, /, *, full_matrices: bool=True) -> Tuple[array, array, array]',
    'linalg.svdvals': 'svdvals(x: array, /) -> array',
    'linalg.tensordot':
        'tensordot(x1: array, x2: array, /, *, axes: Union[int, Tuple[Sequence[int], '
        'Sequence[int]]]=2) -> array',
    'linalg.trace':
        'trace(x: array, /, *, offset: int=0, dtype: Optional[dtype]=None) -> array',
    'linalg.vecdot': 'vecdot(x1: array, x2: array, /, *, axis: int=-1) -> array',
    'linalg.vector_norm':
        'vector_norm(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False, ord: Union[int, float, Literal[inf, -inf]]=2) -> array',
    'linspace':
        'linspace(start: Union[int, float, complex], stop: Union[int, float, complex], /, '
        'num: int, *, dtype: Optional[dtype]=None, device: Optional[device]=None, '
        'endpoint: bool=True) -> array',
    'log': 'log(x: array, /) -> array',
    'log10': 'log10(x: array, /) -> array',
    'log1p': 'log1p(x: array, /) -> array',
    'log2': 'log2(x: array, /) -> array',
    'logaddexp':
        'logaddexp(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'logical_and': 'logical_and(x1: Union[array, bool], x2: Union[array, bool], /) -> array',
    'logical_not': 'logical_not(x: array, /) -> array',
    'logical_or': 'logical_or(x1: Union[array, bool], x2: Union[array, bool], /) -> array',
    'logical_xor': 'logical_xor(x1: Union[array, bool], x2: Union[array, bool], /) -> array',
    'matmul': 'matmul(x1: array, x2: array, /) -> array',
    'matrix_transpose': 'matrix_transpose(x: array, /) -> array',
    'max':
        'max(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'maximum':
        'maximum(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'mean':
        'mean(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'meshgrid':
        "meshgrid(*arrays: array, indexing: Literal['xy', 'ij']='xy') -> Tuple[array, ...]",
    'min':
        'min(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'keepdims: bool=False) -> array',
    'minimum':
        'minimum(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'moveaxis':
        'moveaxis(x: array, source: Union[int, Tuple[int, ...]], destination: Union[int, '
        'Tuple[int, ...]], /) -> array',
    'multiply':
        'multiply(x1: Union[array, int, float, complex], x2: Union[array, int, float, '
        'complex], /) -> array',
    'negative': 'negative(x: array, /) -> array',
    'nextafter':
        'nextafter(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'nonzero': 'nonzero(x: array, /) -> Tuple[array, ...]',
    'not_equal':
        'not_equal(x1: Union[array, int, float, complex, bool], x2: Union[array, int, float, '
        'complex, bool], /) -> array',
    'ones':
        'ones(shape: Union[int, Tuple[int, ...]], *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'ones_like':
        'ones_like(x: array, /, *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'permute_dims': 'permute_dims(x: array, /, axes: Tuple[int, ...]) -> array',
    'positive': 'positive(x: array, /) -> array',
    'pow':
        'pow(x1: Union[array, int, float, complex], x2: Union[array, int, float, complex], '
        '/) -> array',
    'prod':
        'prod(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'dtype: Optional[dtype]=None, keepdims: bool=False) -> array',
    'real': 'real(x: array, /) -> array',
    'reciprocal': 'reciprocal(x: array, /) -> array',
    'remainder':
        'remainder(x1: Union[array, int, float], x2: Union[array, int, float], /) -> array',
    'repeat':
        'repeat(x: array, repeats: Union[int, array], /, *, '
        'axis: Optional[int]=None) -> array',
    'reshape':
        'reshape(x: array, /, shape: Tuple[int, ...], *, copy: Optional[bool]=None) -> array',
    'result_type':
        'result_type(*arrays_and_dtypes: Union[array, int, float, complex, bool, '
        'dtype]) -> dtype',
    'roll':
        'roll(x: array, /, shift: Union[int, Tuple[int, ...]], *, axis: Optional[Union[int, '
        'Tuple[int, ...]]]=None) -> array',
    'round': 'round(x: array, /) -> array',
    'searchsorted':
        "searchsorted(x1: array, x2: Union[array, int, float], /, *, side: Literal['left', "
        "'right']='left', sorter: Optional[array]=None) -> array",
    'sign': 'sign(x: array, /) -> array',
    'signbit': 'signbit(x: array, /) -> array',
    'sin': 'sin(x: array, /) -> array',
    'sinh': 'sinh(x: array, /) -> array',
    'sort':
        'sort(x: array, /, *, axis: int=-1, descending: bool=False, '
        'stable: bool=True) -> array',
    'sqrt': 'sqrt(x: array, /) -> array',
    'square': 'square(x: array, /) -> array',
    'squeeze': 'squeeze(x: array, /, axis: Union[int, Tuple[int, ...]]) -> array',
    'stack':
        'stack(arrays: Union[Tuple[array, ...], List[array]], /, *, axis: int=0) -> array',
    'std':
        'std(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'correction: Union[int, float]=0.0, keepdims: bool=False) -> array',
    'subtract':
        'subtract(x1: Union[array, int, float, complex], x2: Union[array, int, float, '
        'complex], /) -> array',
    'sum':
        'sum(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'dtype: Optional[dtype]=None, keepdims: bool=False) -> array',
    'take': 'take(x: array, indices: array, /, *, axis: Optional[int]=None) -> array',
    'take_along_axis':
        'take_along_axis(x: array, indices: array, /, *, axis: int=-1) -> array',
    'tan': 'tan(x: array, /) -> array',
    'tanh': 'tanh(x: array, /) -> array',
    'tensordot':
        'tensordot(x1: array, x2: array, /, *, axes: Union[int, Tuple[Sequence[int], '
        'Sequence[int]]]=2) -> array',
    'tile': 'tile(x: array, repetitions: Tuple[int, ...], /) -> array',
    'tril': 'tril(x: array, /, *, k: int=0) -> array',
    'triu': 'triu(x: array, /, *, k: int=0) -> array',
    'trunc': 'trunc(x: array, /) -> array',
    'unique_all': 'unique_all(x: array, /) -> Tuple[array, array, array, array]',
    'unique_counts': 'unique_counts(x: array, /) -> Tuple[array, array]',
    'unique_inverse': 'unique_inverse(x: array, /) -> Tuple[array, array]',
    'unique_values': 'unique_values(x: array, /) -> array',
    'unstack': 'unstack(x: array, /, *, axis: int=0) -> Tuple[array, ...]',
    'var':
        'var(x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, '
        'correction: Union[int, float]=0.0, keepdims: bool=False) -> array',
    'vecdot': 'vecdot(x1: array, x2: array, /, *, axis: int=-1) -> array',
    'where':
        'where(condition: array, x1: Union[array, int, float, complex, bool], '
        'x2: Union[array, int, float, complex, bool], /) -> array',
    'zeros':
        'zeros(shape: Union[int, Tuple[int, ...]], *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
    'zeros_like':
        'zeros_like(x: array, /, *, dtype: Optional[dtype]=None, '
        'device: Optional[device]=None) -> array',
}
