"""Operation families on sparse arrays, one module each (dot, elementwise, reduce, reshape,
slicing, sampled, layout).  Every function accepts BCOO and BCSR."""
