"""'100 tensor exercises'-style snippets from tutorials and interview prep: movedim / swapaxes / unflatten,
tensor_split with sizes and indices, hsplit / vsplit / dsplit, uneven chunk and split, take / put_ /
index_put_ with accumulate, index_fill_, scatter_ with reduce, diagonal_scatter / select_scatter /
slice_scatter, as_strided sliding windows, repeat vs tile vs expand, atleast_3d / column_stack / row_stack /
dstack / block_diag, broadcast_tensors / broadcast_shapes, meshgrid 'xy', single-argument where, integer
division and remainder of negatives in every rounding mode, gcd / lcm / bit shifts, copysign / nextafter /
heaviside / float_power / logaddexp, cumulative_trapezoid, kron and cross."""
import torch

t = torch.arange(24).view(2, 3, 4)
print("movedim", torch.movedim(t, 0, -1).shape, t.swapaxes(0, 2).shape, t.unflatten(2, (2, 2)).shape, t.flatten(0, 1).shape)
print("tensor_split", [x.shape[0] for x in torch.tensor_split(torch.arange(10), 3)], [x.tolist() for x in torch.tensor_split(torch.arange(7), [1, 5])])
m = torch.arange(16).view(4, 4)
print("hsplit", [x.shape for x in torch.hsplit(m, 2)], [x.shape for x in torch.vsplit(m, [1, 3])], [x.shape for x in torch.dsplit(t, 2)])
print("chunk", [x.tolist() for x in torch.arange(7).chunk(3)], [x.tolist() for x in torch.arange(7).split([2, 5])], len(torch.arange(5).chunk(4)))
src = torch.arange(12.0).view(3, 4)
print("take", torch.take(src, torch.tensor([0, 5, 11])), src.clone().put_(torch.tensor([1, 1]), torch.tensor([9.0, 10.0]), accumulate=True)[0])
acc = torch.zeros(5).index_put_((torch.tensor([0, 2, 0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print("index_put accumulate", acc, torch.zeros(3, 3).index_put_((torch.tensor([0, 2]), torch.tensor([1, 1])), torch.tensor(7.0)))
print("index_fill", src.clone().index_fill_(1, torch.tensor([0, 3]), -1.0)[1])
print("scatter reduce", torch.ones(2, 4).scatter_(1, torch.tensor([[0, 1], [2, 2]]), torch.full((2, 2), 3.0), reduce="multiply"),
      torch.zeros(2, 4).scatter_(1, torch.tensor([[0, 0], [3, 3]]), 2.0, reduce="add"))
print("diagonal_scatter", torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(2), 1), torch.select_scatter(torch.zeros(2, 3), torch.ones(3), 0, 1)[1],
      torch.slice_scatter(torch.zeros(4, 2), torch.ones(2, 2), 0, 1, 4, 2).T)
seq = torch.arange(10.0)
windows = seq.as_strided((4, 4), (2, 1))
print("as_strided windows", windows, torch.equal(windows, seq.unfold(0, 4, 2)))
v = torch.tensor([1, 2])
print("repeat/tile/expand", v.repeat(2, 2).tolist(), torch.tile(v, (3,)).tolist(), v.expand(3, 2).tolist(), v.repeat_interleave(2).tolist())
print("atleast", torch.atleast_3d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(3)).shape, torch.atleast_2d(torch.ones(3)).shape)
a, b = torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])
print("stacks", torch.column_stack([a, b]).tolist(), torch.row_stack([a, b]).tolist(), torch.dstack([a, b]).shape, torch.hstack([a, b]).tolist())
print("block_diag", torch.block_diag(torch.ones(2, 2), torch.tensor([[5]]), torch.zeros(1, 2)).tolist())
x, y = torch.broadcast_tensors(torch.ones(3, 1), torch.zeros(1, 4))
print("broadcast", x.shape, y.stride(), torch.broadcast_shapes((2, 1, 3), (4, 1), (1,)))
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print("meshgrid xy", gx.tolist(), gy.shape)
print("where single", torch.where(torch.tensor([[0, 1], [1, 0]])), torch.argwhere(torch.tensor([0, 3, 0, 4])).flatten().tolist())
n = torch.tensor([-7, -3, 3, 7])
d = torch.tensor([2, -2, 2, -2])
print("div", torch.div(n, d), torch.div(n, d, rounding_mode="trunc"), torch.div(n, d, rounding_mode="floor"), n // d)
print("remainder", torch.remainder(n, d), torch.fmod(n, d), n % 3, torch.fmod(torch.tensor([-7.5, 7.5]), 2), torch.remainder(torch.tensor([-7.5, 7.5]), -2))
print("float division", torch.tensor([-7.0, 7.0]) // 2, torch.floor_divide(torch.tensor([-7.5]), torch.tensor([2.0])), torch.true_divide(n, 2))
print("gcd/lcm", torch.gcd(torch.tensor([12, -18, 0]), torch.tensor([8, 12, 5])), torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, -4, 3])))
print("shifts", torch.tensor([1, 8, -16]) << 2, torch.tensor([1, 8, -16]) >> 1, torch.bitwise_left_shift(torch.tensor([3]), torch.tensor([4])))
f = torch.tensor([1.0, -2.0, 0.0, 3.0])
print("copysign", torch.copysign(f, torch.tensor([-1.0, 1.0, -0.0, -2.0])), torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1)
print("heaviside", torch.heaviside(f, torch.tensor([0.5])), torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(f, 0.5))
print("logaddexp", torch.logaddexp(torch.tensor([0.0, -100.0]), torch.tensor([0.0, -100.5])), torch.logaddexp2(torch.tensor([1.0]), torch.tensor([1.0])))
ys = torch.tensor([0.0, 1.0, 4.0, 9.0])
print("cumulative_trapezoid", torch.cumulative_trapezoid(ys), torch.cumulative_trapezoid(ys, dx=0.5), torch.trapezoid(ys, x=torch.tensor([0.0, 1.0, 3.0, 4.0])))
print("kron", torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]])).tolist())
print("cross", torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])), torch.cross(torch.eye(3), torch.ones(3, 3), dim=1))
print("clamp tensors", torch.clamp(torch.arange(5.0), min=torch.tensor([1.0, 0, 0, 0, 0]), max=torch.tensor(3.0)), torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0.0, 0.5, 1.0])))
print("flip", torch.fliplr(m)[0].tolist(), torch.flipud(m)[0].tolist(), torch.rot90(m, -1)[0].tolist(), torch.roll(m, (1, -1), (0, 1))[0].tolist())
print("diag_embed", torch.diag_embed(torch.tensor([[1, 2], [3, 4]]), offset=1).shape, torch.diag(torch.tensor([1, 2]), -1).tolist())
print("masked_select", torch.masked_select(src, src > 8), src.masked_fill(src < 3, float("nan")).nanmean().item())
