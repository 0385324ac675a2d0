"""The table of the study's brief (analysis/README.md): the headline variants at 2^28, best
block, x copy and x CUB on each GPU and their H100 time over H200 time, from the full runs.
Run from the repository root: .venv/bin/python analysis/figures/brief.py"""
# H100 time / H200 time at 2^28 (pot), best block per row, from the full runs of 9ca6ced22311
import sys; sys.path.insert(0, 'scripts')
import results
a = results.load('results/nvidia-h100-80gb-hbm3.json').rows
b = results.load('results/nvidia-h200.json').rows
def best(rows, alg, var, facet, k=28):
    r = rows[(rows.algorithm == alg) & (rows.variant == var) & (rows.facet == facet) & (rows['size'] == 'pot') & (rows.log2n == k)]
    if alg != 'sort' and var == 'copy': r = rows[(rows.algorithm == alg) & (rows.variant == 'copy') & (rows['size'] == 'pot') & (rows.log2n == k)]
    r = r.sort_values('time_us').iloc[0]
    return r
cases = [('scan','copy',''),('scan','prefetch_lookback',''),('scan','decoupled_lookback',''),('scan','cub',''),('scan','coarsened',''),('scan','naive',''),
         ('compact','prefetch_lookback','keep:0.50'),('compact','single_pass','keep:0.50'),('compact','cub','keep:0.50'),
         ('reduce','vectorized_grid_stride',''),('reduce','cub',''),('reduce','warp_shuffle',''),
         ('sort','onesweep','keys/uniform'),('sort','cub','keys/uniform'),('sort','onesweep','pairs/uniform'),('sort','cub','pairs/uniform'),('sort','block_local_4bit','keys/uniform'),
         ('utf8','single_pass','decode/mixed'),('utf8','single_pass','validate/mixed'),('utf8','single_pass','encode/mixed'),('utf8','scan_based','decode/mixed')]
for alg,var,facet in cases:
    ra, rb = best(a,alg,var,facet), best(b,alg,var,facet)
    print(f"{alg:8s} {var:24s} {facet:15s} H100 {ra.time_us:9.1f} (b{int(ra.block)}) H200 {rb.time_us:9.1f} (b{int(rb.block)})  H100/H200 {ra.time_us/rb.time_us:.3f}  x copy {ra.copy_frac:.3f} / {rb.copy_frac:.3f}")
