"""pytorch.org's "Tensor Views" doc page: a view shares storage with its base (t._base,
untyped_storage().data_ptr()), a change through the view shows in the base, transpose gives a
non-contiguous view and contiguous() copies, the listed view ops (basic slicing, as_strided, detach,
diagonal, expand, movedim, narrow, permute, select, squeeze, t, unbind, unflatten, unfold, split, chunk,
view_as_real, view, indices of sparse ... ) checked with _base, and the ops that may or may not return a
view (reshape, flatten, contiguous) plus advanced indexing that never does."""
import torch

torch.manual_seed(0)
t = torch.rand(4, 4)
b = t.view(2, 8)
print(t.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
b[0][0] = 3.14
print(t[0][0])
base = torch.tensor([[0, 1], [2, 3]])
print(base.is_contiguous())
t = base.transpose(0, 1)
print(t._base is base)
print(t.is_contiguous())
c = t.contiguous()
print(c._base is None, c.is_contiguous(), c)

x = torch.arange(24.0).view(2, 3, 4)
views = {
    "slice": x[:, 1:, ::2],
    "as_strided": x.as_strided((2, 2), (1, 2)),
    "detach": x.detach(),
    "diagonal": x.diagonal(dim1=1, dim2=2),
    "expand": x[:, :1].expand(2, 5, 4),
    "movedim": x.movedim(0, 2),
    "narrow": x.narrow(2, 1, 2),
    "permute": x.permute(2, 0, 1),
    "select": x.select(1, 2),
    "squeeze": x[:, :1].squeeze(1),
    "unsqueeze": x.unsqueeze(0),
    "t": x[0].t(),
    "T": x[0].T,
    "mT": x.mT,
    "unbind": x.unbind(0)[1],
    "unflatten": x.unflatten(2, (2, 2)),
    "unfold": x.unfold(2, 2, 1),
    "split": x.split(2, dim=2)[1],
    "chunk": x.chunk(3, dim=1)[2],
    "swapaxes": x.swapaxes(0, 1),
    "view_as": x.view_as(torch.empty(6, 4)),
    "real": torch.view_as_real(torch.randn(3, dtype=torch.cfloat)),
    "imag": torch.randn(3, dtype=torch.cfloat).imag,
    "hsplit": x[0].hsplit(2)[0],
    "tensor_split": x.tensor_split(3, dim=1)[0],
    "split_with_sizes": x.split_with_sizes([1, 3], dim=2)[1],
    "indices": x[..., None],
}
for name, v in views.items():
    print(f"{name:16s} view={v._base is not None} shape={tuple(v.shape)} stride={v.stride()} "
          f"offset={v.storage_offset()} contiguous={v.is_contiguous()}")
r = x.reshape(6, 4)
print("reshape of contiguous:", r._base is x)
r = x.transpose(0, 1).reshape(6, 4)
print("reshape of transposed:", r._base is None)
print("flatten:", x.flatten()._base is x, x.transpose(1, 2).flatten()._base is None)
print("contiguous:", x.contiguous() is x)
print("advanced:", x[[0, 1]]._base is None, x[x > 5]._base is None)
print("index_select:", x.index_select(0, torch.tensor([0]))._base is None)
v = x.select(0, 0).narrow(1, 1, 2)
v.mul_(-1)
print(x[0])
print(v._base is x, v._base.shape)
w = torch.ones(3, requires_grad=True).clone()
u = w[1:]
u.add_(1)
print(w.grad_fn.name(), u.grad_fn.name())
print(x.view(-1)._is_view(), x._is_view())
