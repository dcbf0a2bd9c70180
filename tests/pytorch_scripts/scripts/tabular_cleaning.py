"""Kaggle-style tabular preprocessing and statistics in pure torch: missing values found with isnan,
column means by nanmean / nansum, imputation with torch.where and nan_to_num, outliers clipped at
quantiles (torch.quantile with interpolation modes, nanquantile), z-scores with std(unbiased) and
var_mean, masked_select / nonzero(as_tuple=True) / argwhere for row filtering, categorical
encoding with unique(return_inverse, return_counts, sorted), bincount with weights and minlength,
histc and histogram, bucketize/searchsorted binning (right=, out_int32), median / nanmedian / mode /
kthvalue, cummax / cummin / logcumsumexp, sort(stable=True) and argsort(descending), topk of
groups, then a small model with entity embeddings trained on the cleaned data."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n = 24
age = torch.randint(18, 70, (n,)).float()
income = torch.randn(n).mul(15).add(50)
score = torch.rand(n) * 100
city = torch.tensor([0, 2, 1, 2, 2, 0, 3, 1, 2, 0, 0, 3, 2, 1, 1, 0, 2, 2, 3, 0, 1, 2, 0, 1])
age[[2, 7, 19]] = float("nan")
income[[4, 11]] = float("nan")
income[5] = 400.0  # an outlier
X = torch.stack([age, income, score], dim=1)

missing = torch.isnan(X)
print("missing per column", missing.sum(0).tolist(), "rows with any", missing.any(1).nonzero().flatten().tolist())
col_mean = torch.nanmean(X, dim=0)
print("nanmean", col_mean.round(decimals=3).tolist(), "nansum", torch.nansum(X, 0).round(decimals=2).tolist())
X_imp = torch.where(missing, col_mean.expand_as(X), X)
print("imputed", X_imp[2].round(decimals=3).tolist(), torch.nan_to_num(X, nan=-1.0)[4].round(decimals=3).tolist())
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])).tolist())
print("nanmedian", torch.nanmedian(X, dim=0).values.round(decimals=3).tolist(), torch.nanmedian(age).item())
print("nanquantile", torch.nanquantile(X[:, 1], torch.tensor([0.1, 0.5, 0.9])).round(decimals=3).tolist())

inc = X_imp[:, 1]
for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(mode, round(torch.quantile(inc, 0.95, interpolation=mode).item(), 4), end="; ")
print()
lo, hi = torch.quantile(inc, torch.tensor([0.05, 0.95]))
clipped = inc.clamp(lo, hi)
print("clipped max", round(clipped.max().item(), 4), "changed", (clipped != inc).sum().item())
var, mean = torch.var_mean(X_imp, dim=0, unbiased=True)
z = (X_imp - mean) / var.sqrt()
print("z", z.std(0).round(decimals=4).tolist(), X_imp.std(0, correction=0).round(decimals=4).tolist())
outliers = (z.abs() > 3).any(1)
print("outlier rows", torch.argwhere(outliers).flatten().tolist(), torch.nonzero(z.abs() > 2, as_tuple=True))
keep = ~outliers
print("masked_select", torch.masked_select(X_imp[:, 0], keep & (X_imp[:, 0] > 60)).tolist())

uniq, inverse, counts = torch.unique(city, sorted=True, return_inverse=True, return_counts=True)
print("unique", uniq.tolist(), inverse[:6].tolist(), counts.tolist())
print("bincount", torch.bincount(city).tolist(), torch.bincount(city, weights=score, minlength=5).round(decimals=2).tolist())
group_mean = torch.zeros(4).index_add_(0, city, score) / torch.bincount(city).float()
print("group means", group_mean.round(decimals=3).tolist())
print("unique_consecutive", torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True))
print("unique dim", torch.unique(torch.tensor([[1, 2], [3, 4], [1, 2]]), dim=0, return_counts=True))

print("histc", torch.histc(score, bins=5, min=0, max=100).tolist())
hist, edges = torch.histogram(score, bins=4)
print("histogram", hist.tolist(), edges.round(decimals=3).tolist())
boundaries = torch.tensor([30.0, 45.0, 60.0])
age_bin = torch.bucketize(X_imp[:, 0], boundaries)
print("bucketize", age_bin.tolist(), torch.bucketize(torch.tensor([30.0, 45.0]), boundaries, right=True).tolist())
print("searchsorted", torch.searchsorted(boundaries, torch.tensor([29.0, 30.0, 61.0]), out_int32=True),
      torch.searchsorted(boundaries, torch.tensor([30.0]), side="right"))
cdf = torch.cumsum(torch.tensor([0.1, 0.2, 0.3, 0.4]), 0)
print("inverse cdf", torch.searchsorted(cdf, torch.tensor([0.05, 0.35, 0.95])).tolist())

print("median", X_imp.median(dim=0).values.round(decimals=3).tolist(), score.median().item() == score.sort()[0][11].item())
print("mode", torch.mode(city).values.item(), torch.mode(torch.tensor([[1, 1, 2], [3, 2, 2]]), dim=1))
print("kthvalue", torch.kthvalue(score, 3).values.round(decimals=4).item(), torch.kthvalue(score, 3).indices.item())
print("cummax", torch.cummax(torch.tensor([1, 3, 2, 5, 4]), 0), torch.cummin(torch.tensor([3.0, 1, 2, 0]), 0).values)
print("logcumsumexp", torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), 0).round(decimals=4).tolist())
sorted_cities, order = torch.sort(city, stable=True)
print("stable sort", order.tolist()[:8], torch.argsort(score, descending=True)[:5].tolist())
top_per_city = [score[city == c].topk(min(2, int((city == c).sum()))).values.round(decimals=2).tolist() for c in uniq]
print("top per city", top_per_city)


# entity embeddings on the cleaned table
class TabularModel(nn.Module):
    def __init__(self, n_cat, emb_dim, n_cont):
        super().__init__()
        self.emb = nn.Embedding(n_cat, emb_dim)
        self.bn = nn.BatchNorm1d(n_cont)
        self.layers = nn.Sequential(nn.Linear(emb_dim + n_cont, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1))

    def forward(self, cat, cont):
        return self.layers(torch.cat([self.emb(cat), self.bn(cont)], 1)).squeeze(1)


target = (z[:, 2] > 0).float()
model = TabularModel(4, 3, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(5):
    model.train()
    loss = F.binary_cross_entropy_with_logits(model(inverse[keep], z[keep][:, :2]), target[keep])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    pred = (model(inverse, z[:, :2]) > 0).float()
print("accuracy", (pred == target).float().mean().item())
