"""Tensor recipes from Stack Overflow answers and utility modules: einsum forms (ellipsis, trace, diagonal,
outer, bilinear, batch matmul), cdist with p=1 / inf and compute_mode, topk(largest=False), stable sort,
unique with inverse/counts/dim, unique_consecutive, bincount with weights, histc and histogram with
explicit edges, segment sums with cumsum and index_add, scatter_reduce with amax/mean and include_self,
searchsorted/bucketize, diff with prepend, cummax/cummin/logcumsumexp, kthvalue, median, mode, nanquantile,
std_mean/var_mean with correction, cov/corrcoef with weights, count_nonzero, aminmax, nan_to_num,
take_along_dim, repeat_interleave with tensor repeats, and tril_indices based pair enumeration."""
import torch

torch.manual_seed(12)
A, B = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
M = torch.randn(4, 4)
print("bmm", torch.allclose(torch.einsum("bij,bjk->bik", A, B), A @ B))
print("trace", torch.einsum("ii", M).item(), M.trace().item(), "diag", torch.einsum("ii->i", M))
print("ellipsis", torch.einsum("...ij,...jk->...ik", A, B).shape, torch.einsum("b...->b", A))
u, v = torch.arange(3.0), torch.arange(4.0)
W = torch.randn(5, 3, 4)
print("outer", torch.einsum("i,j->ij", u, v)[2], "bilinear", torch.einsum("i,kij,j->k", u, W, v))
print("sum over pairs", torch.einsum("bij->j", A), torch.einsum("ij,ij->i", M, M))

X, Y = torch.randn(5, 3), torch.randn(4, 3)
print("cdist p=1", torch.cdist(X, Y, p=1)[0], "\ncdist inf", torch.cdist(X, Y, p=float("inf"))[0])
print("cdist mm", torch.cdist(X, Y, compute_mode="use_mm_for_euclid_dist")[1])
vals = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0])
print("topk smallest", torch.topk(vals, 3, largest=False), (vals + torch.arange(10) * 0.01).topk(3, sorted=True).indices)
s = torch.sort(vals, stable=True)
print("stable sort", s.values, s.indices, torch.sort(vals, descending=True, stable=True).indices)
print("argsort", torch.argsort(vals, stable=True), "msort", torch.msort(vals.view(5, 2)))
uniq, inverse, counts = torch.unique(vals, return_inverse=True, return_counts=True)
print("unique", uniq, inverse, counts)
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 0]])
print("unique dim", torch.unique(rows, dim=0, return_inverse=True), torch.unique(rows, sorted=True))
print("unique_consecutive", torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True, return_inverse=True))
labels = torch.tensor([0, 2, 2, 5, 1, 2])
print("bincount", torch.bincount(labels), torch.bincount(labels, weights=torch.linspace(0, 1, 6), minlength=8))
print("histc", torch.histc(vals, bins=4, min=0, max=10), torch.histc(vals, bins=3))
hist, edges = torch.histogram(vals, bins=torch.tensor([0.0, 2.0, 5.0, 10.0]))
print("histogram", hist, edges, torch.histogram(vals, bins=4, density=True).hist)

segment_ids = torch.tensor([0, 0, 1, 1, 1, 3])
data = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
print("segment sum", torch.zeros(4).index_add_(0, segment_ids, data), torch.zeros(4).scatter_add(0, segment_ids, data))
for reduce in ("sum", "prod", "mean", "amax", "amin"):
    for include_self in (True, False):
        out = torch.full((4,), 10.0).scatter_reduce(0, segment_ids, data, reduce=reduce, include_self=include_self)
        print(f"scatter_reduce {reduce:4s} include_self={include_self!s:5s}", out)
offsets = torch.cat([torch.zeros(1, dtype=torch.long), torch.bincount(segment_ids, minlength=4).cumsum(0)])
cs = torch.cat([torch.zeros(1), data.cumsum(0)])
print("cumsum segment trick", cs[offsets[1:]] - cs[offsets[:-1]], offsets)
print("segment index_reduce", torch.zeros(4).index_reduce_(0, segment_ids, data, "amax", include_self=False))

bounds = torch.tensor([1.0, 3.0, 5.0, 7.0])
queries = torch.tensor([0.5, 1.0, 3.0, 6.0, 9.0])
print("searchsorted", torch.searchsorted(bounds, queries), torch.searchsorted(bounds, queries, right=True),
      torch.searchsorted(bounds, queries, side="right"))
print("bucketize", torch.bucketize(queries, bounds), torch.bucketize(queries, bounds, right=True))
sorter = torch.argsort(torch.tensor([7.0, 1.0, 5.0, 3.0]))
print("searchsorted sorter", torch.searchsorted(torch.tensor([7.0, 1.0, 5.0, 3.0]), queries, sorter=sorter))
print("diff", torch.diff(vals, prepend=torch.tensor([0.0])), torch.diff(vals.view(2, 5), n=2, dim=1))
print("cummax", torch.cummax(vals, 0), "\ncummin", torch.cummin(vals, 0).values)
print("logcumsumexp", torch.logcumsumexp(vals / 3, 0))
print("kthvalue", torch.kthvalue(vals, 3), "median", vals.median(), torch.median(vals.view(2, 5), dim=1))
print("mode", torch.mode(torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]]), dim=1))
with_nan = torch.tensor([1.0, float("nan"), 3.0, 4.0, float("nan"), 10.0])
print("nanquantile", torch.nanquantile(with_nan, torch.tensor([0.25, 0.5, 0.9])), torch.nanmedian(with_nan), with_nan.nansum())
print("quantile interpolation", [torch.quantile(vals, 0.3, interpolation=m).item() for m in ("linear", "lower", "higher", "midpoint", "nearest")])
print("std_mean", torch.std_mean(vals), torch.var_mean(vals.view(2, 5), dim=1, correction=0))
obs = torch.randn(3, 6)
fw = torch.tensor([1, 2, 1, 1, 3, 1])
aw = torch.rand(6)
print("cov", torch.cov(obs, correction=0)[0], torch.cov(obs, fweights=fw, aweights=aw)[1], "\ncorrcoef", torch.corrcoef(obs)[2])
print("count_nonzero", torch.count_nonzero(rows, dim=0), "aminmax", torch.aminmax(vals), torch.aminmax(rows, dim=1))
print("nan_to_num", torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=1e3))
scores = torch.randn(3, 5)
idx = scores.argsort(dim=1, descending=True)[:, :2]
print("take_along_dim", torch.take_along_dim(scores, idx, dim=1), torch.take_along_dim(scores, scores.argmax()).item())
print("repeat_interleave", torch.repeat_interleave(torch.tensor([10, 20, 30]), torch.tensor([1, 0, 3])),
      torch.repeat_interleave(torch.tensor([2, 1])))
i, j = torch.tril_indices(4, 4, offset=-1)
pts = torch.randn(4, 2)
print("pairs", list(zip(i.tolist(), j.tolist())), (pts[i] - pts[j]).norm(dim=1), torch.pdist(pts))
print("combinations", torch.combinations(torch.arange(4), r=2).T, torch.triu_indices(3, 4, 1))
print("cartesian", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])).shape)
