"""Tensor views and memory layout as the 'Tensor Views' docs page and blog posts on strides explain
them: stride(), storage_offset(), is_contiguous() after transpose/permute/narrow/expand/slicing with
steps, view vs reshape (the view error on non-contiguous input, reshape copying), contiguous()
returning self when already contiguous, as_strided for sliding windows compared with unfold,
expand's zero strides and the in-place error it leads to, untyped_storage().data_ptr() sharing,
_base of views, NHWC permutes (channels_last kept to values: tinyframe has one memory order),
t()/T/mT/H on matrices, unflatten / movedim / swapaxes / diagonal strides, and writes through views
(select, narrow, diagonal().fill_ and view-of-view) showing up in the base."""
import torch

x = torch.arange(24.).view(2, 3, 4)
print(x.stride(), x.storage_offset(), x.is_contiguous(), x.stride(1))
t = x.transpose(0, 2)
print(t.shape, t.stride(), t.is_contiguous(), t._base is x, t.contiguous().stride())
p = x.permute(2, 0, 1)
print(p.stride(), p.is_contiguous())
s = x[:, 1:, ::2]
print(s.shape, s.stride(), s.storage_offset(), s.is_contiguous())
n = x.narrow(2, 1, 2)
print(n.stride(), n.storage_offset(), n.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
c = x.contiguous()
print("contiguous() is self:", c is x, t.contiguous() is t)
try:
    t.view(-1)
except RuntimeError as e:
    print("RuntimeError:", e)
r = t.reshape(-1)
print("reshape copies:", r.untyped_storage().data_ptr() != x.untyped_storage().data_ptr(), r[:5].tolist())
print("reshape of contiguous is a view:", x.reshape(6, 4)._base is x, x.flatten()._base is x)
e = torch.tensor([1., 2., 3.]).unsqueeze(1).expand(3, 4)
print("expand", e.shape, e.stride(), e.is_contiguous())
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError:", str(err).splitlines()[0])
sig = torch.arange(10.)
win = sig.as_strided((4, 4), (2, 1))
print("as_strided windows", win.tolist())
print("unfold same:", torch.equal(win, sig.unfold(0, 4, 2)), sig.unfold(0, 4, 2).stride())
print("as_strided offset", sig.as_strided((2, 2), (1, 3), 4).tolist())
img = torch.arange(2 * 3 * 4 * 5.).view(2, 3, 4, 5)
cl = img.to(memory_format=torch.channels_last)
print("channels_last", torch.equal(cl, img), cl.contiguous().stride(), torch.channels_last)
nhwc = img.permute(0, 2, 3, 1)
print("NHWC permute", nhwc.stride(), nhwc.is_contiguous(), nhwc.contiguous().permute(0, 3, 1, 2).stride())
m = torch.arange(6.).view(2, 3)
print(m.t().stride(), m.T.shape, m.mT.stride(), torch.arange(24.).view(2, 3, 4).mT.stride())
cm = torch.tensor([[1 + 2j, 3 - 1j]])
print(cm.H, cm.mH.shape)
print(x.unflatten(2, (2, 2)).stride(), x.movedim(0, -1).stride(), x.swapaxes(0, 1).stride())
d = torch.zeros(3, 3)
d.diagonal().fill_(7)
print(d.diagonal().stride(), d.tolist())
base = torch.zeros(3, 4)
row = base.select(0, 1)
row[1:3] = torch.tensor([5., 6.])
base.narrow(1, 3, 1).fill_(-1)
vv = base.view(12)[::5]
vv += 10
print(base.tolist(), vv.stride(), vv._base is base)
print(torch.ones(2, 3).T.contiguous().stride(), torch.empty(0, 3).stride(), torch.tensor(5.).stride())
y = x.detach()
print("detach shares storage:", y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), y._base is None)
print(x.data_ptr() == x.view(-1).data_ptr(), x[1].data_ptr() - x.data_ptr())
position_ids = torch.arange(8).expand((1, -1))
print("position_ids", position_ids.stride(), position_ids[:, 2:5].stride(), position_ids.is_contiguous())
base = torch.zeros(1, 4)
shared = base.expand(3, 4)
shared[0, 1] = 5
shared[2][2:] = torch.tensor([1.0, 2.0])
print("write through expand", base.tolist(), shared.stride())
try:
    shared.add_(1)
except RuntimeError as err:
    print("RuntimeError:", str(err).splitlines()[0])
shared.fill_(3)
print("fill_ allowed", base.tolist())
g = torch.randn(2, 3, requires_grad=True)
print(torch.ravel(g.T).grad_fn.name(), g.ravel()._base is g, torch.atleast_3d(g).grad_fn.name(), torch.atleast_3d(g).shape)
print(torch.empty(0, 3).stride(), torch.zeros(4, 0, 2).stride())
