"""einops-free tensor reshaping as research code writes it: rearrange patterns done with
view/permute/flatten/unflatten/movedim ('b c (h p1) (w p2) -> b (h w) (p1 p2 c)' and back),
einsum for batched bilinear forms, attention, outer products, traces, diagonals and
broadcasting ('...'), torch.tensordot, kron and block_diag, cartesian_prod / combinations /
meshgrid(indexing='ij' and 'xy'), tril_indices/triu_indices for pairwise terms, tensor_split /
split with sizes / chunk / unbind, as_strided sliding windows vs unfold, F.unfold/F.fold patch
round trips, roll/flip/rot90, repeat vs expand vs repeat_interleave, and contiguity/strides."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
b, c, h, w, p = 2, 3, 4, 6, 2
img = torch.arange(b * c * h * w, dtype=torch.float32).view(b, c, h, w)

# b c (h p1) (w p2) -> b (h w) (p1 p2 c)
patches = img.view(b, c, h // p, p, w // p, p).permute(0, 2, 4, 3, 5, 1).reshape(b, (h // p) * (w // p), p * p * c)
print("patches", patches.shape, patches[0, 1, :6].tolist(), patches.is_contiguous())
back = patches.view(b, h // p, w // p, p, p, c).permute(0, 5, 1, 3, 2, 4).reshape(b, c, h, w)
print("round trip", torch.equal(back, img))
tokens = img.flatten(2).transpose(1, 2)
print("flatten", tokens.shape, tokens.stride(), tokens.is_contiguous(), tokens.contiguous().stride())
print("unflatten", img.flatten(1).unflatten(1, (c, h * w)).shape, img.unflatten(-1, (2, -1)).shape)
print("movedim", img.movedim(1, -1).shape, img.movedim((0, 1), (2, 3)).shape, img.moveaxis(-1, 0).shape)

x = torch.randn(b, 5, 4)
W = torch.randn(4, 4)
y = torch.randn(b, 5, 4)
bil = torch.einsum("bni,ij,bnj->bn", x, W, y)
print("bilinear", torch.allclose(bil, ((x @ W) * y).sum(-1), atol=1e-5), bil.shape)
q, k, v = torch.randn(b, 2, 5, 4), torch.randn(b, 2, 5, 4), torch.randn(b, 2, 5, 4)
att = torch.einsum("bhqd,bhkd->bhqk", q, k).softmax(-1)
out = torch.einsum("bhqk,bhkd->bhqd", att, v)
print("attention", torch.allclose(out, att @ v, atol=1e-6), round(out.sum().item(), 4))
m = torch.randn(3, 3)
print("trace/diag", round(torch.einsum("ii", m).item(), 4) == round(m.trace().item(), 4),
      torch.equal(torch.einsum("ii->i", m), m.diagonal()))
print("outer", torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(2.0)).tolist())
print("ellipsis", torch.einsum("...ij,...jk->...ik", torch.randn(2, 3, 2, 4), torch.randn(2, 3, 4, 5)).shape,
      torch.einsum("b...d,d->b...", torch.ones(2, 3, 4), torch.arange(4.0)).tolist()[0])
print("sublist", torch.einsum(m, [0, 1], torch.ones(3), [1], [0]).round(decimals=4).tolist())
print("tensordot", torch.tensordot(torch.ones(2, 3, 4), torch.ones(4, 3, 5), dims=([1, 2], [1, 0])).shape,
      torch.tensordot(torch.arange(6.0).view(2, 3), torch.arange(6.0).view(3, 2), dims=1).tolist())
print("kron", torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])).tolist())
print("block_diag", torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1)).tolist())
print("cartesian", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])).tolist())
print("combinations", torch.combinations(torch.tensor([1, 2, 3]), r=2).tolist(),
      torch.combinations(torch.tensor([1, 2]), with_replacement=True).tolist())
gy, gx = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
xx, yy = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")
print("meshgrid", gy.tolist(), xx.shape, torch.stack([gx, gy], -1).shape)
pts = torch.randn(5, 2)
i, j = torch.triu_indices(5, 5, offset=1)
pair_d = (pts[i] - pts[j]).norm(dim=1)
print("pairs", i.shape, torch.allclose(pair_d, torch.pdist(pts), atol=1e-6), torch.tril_indices(3, 3).tolist())

seq = torch.arange(10)
print("tensor_split", [t.tolist() for t in torch.tensor_split(seq, 3)], [t.tolist() for t in seq.tensor_split([2, 5])])
print("split", [t.tolist() for t in seq.split([3, 3, 4])], [t.shape[0] for t in seq.chunk(4)],
      len(torch.arange(6).view(2, 3).unbind(1)))
windows = seq.as_strided((4, 4), (2, 1))
print("windows", torch.equal(windows, seq.unfold(0, 4, 2)), windows.tolist()[1])
cols = F.unfold(img, kernel_size=2, stride=2)
print("F.unfold", cols.shape, torch.equal(F.fold(cols, (h, w), kernel_size=2, stride=2), img))
overlap = F.fold(F.unfold(torch.ones(1, 1, 4, 4), 3, padding=1), (4, 4), 3, padding=1)
print("fold counts", overlap[0, 0].tolist())
r = torch.arange(6).view(2, 3)
print("roll", r.roll(1, 1).tolist(), r.roll((1, 1), (0, 1)).tolist(), r.flip(0).tolist(), r.rot90().tolist(),
      r.rot90(2, (0, 1)).tolist())
t = torch.tensor([[1, 2]])
print("repeat", t.repeat(2, 2).tolist(), t.expand(3, 2).stride(), t.repeat_interleave(2, dim=1).tolist(),
      torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([3, 1])).tolist())
e = t.expand(3, 2)
try:
    e.view(-1)
except RuntimeError as err:
    print("view of expanded:", str(err)[:50])
print("reshape copies", e.reshape(-1).tolist(), e.is_contiguous(), t.t().is_contiguous(), t.t().contiguous().stride())
print("squeeze dims", torch.zeros(1, 3, 1, 2).squeeze((0, 2)).shape, torch.zeros(3).unsqueeze(-1).unsqueeze(0).shape)
print("new_axis", torch.arange(3)[None, :, None].shape, torch.arange(3)[..., None].shape)
