"""The runtime: compiling kernels and keeping their executables.

A kernel (``kernel.py``: the one place that calls ``jax.jit``) is called through the key
of its call (``call_key.py``, the kernel's identity ``kernel_id.py``), looked up in the
process's table (``executables.py``), then in the executable store on disk
(``exec_store.py``: bytes by key, ``serialize.py`` turning executables into bytes,
``fingerprint.py`` what else a key depends on, ``tiers.py`` where the portable tiers are,
``prefetch.py``, ``files.py``, ``lookup_log.py``), and compiled last (``compile_options.py``, ``hlo_text.py``).  A kernel's
declared CPU host path is decided here too (``host_path.py``).

The runtime imports the array semantics (``laxarray._core``), never the reverse.
"""
