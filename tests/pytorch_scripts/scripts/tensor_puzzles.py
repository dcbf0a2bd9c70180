"""srush/Tensor-Puzzles solved the way the puzzles ask: each function built only from arange, where,
broadcasting and indexing (no loops), checked against the obvious PyTorch call. Printing the results
and a few shapes, dtypes and errors on the way."""
import torch

torch.manual_seed(0)


def arange(i: int):
    return torch.tensor(range(i))


def where(q, a, b):
    return (q * a) + (~q) * b


def ones(i):
    return where(arange(i) >= 0, 1, 0)


def sum(a):
    return ones(a.shape[0]) @ a[:, None]


def outer(a, b):
    return a[:, None] * b[None, :]


def diag(a):
    return a[arange(a.shape[0]), arange(a.shape[0])]


def eye(j):
    return where(arange(j)[:, None] == arange(j), 1, 0)


def triu(j):
    return where(arange(j)[:, None] <= arange(j), 1, 0)


def cumsum(a):
    return triu(a.shape[0]) @ a


def diff(a, i):
    return a[arange(i)] - where(arange(i) != 0, a[arange(i) - 1], 0)


def vstack(a, b):
    return where(arange(2)[:, None] == ones(a.shape[0]), b, a)


def roll(a, i):
    return a[(arange(i) + 1) % i]


def flip(a, i):
    return a[i - arange(i) - 1]


def compress(g, v, i):
    return where(g, v, 0) @ where(cumsum(1 * g) - 1 == arange(i)[:, None], 1, 0).T


def pad_to(a, i, j):
    return a @ (1 * (arange(i)[:, None] == arange(j)))


def sequence_mask(values, length):
    return where(length[:, None] > arange(values.shape[1]), values, 0)


def bincount(a, j):
    return ones(a.shape[0]) @ eye(j)[a]


def scatter_add(values, link, j):
    return values @ eye(j)[link]


def flatten(a, i, j):
    return a[arange(i * j) // j, arange(i * j) % j]


def linspace(i, j, n):
    return i + (j - i) * arange(n) / max(1, n - 1)


def heaviside(a, b):
    return where(a > 0, 1, where(a == 0, b, 0))


def repeat(a, d):
    return ones(d)[:, None] @ a[None]


def bucketize(v, boundaries):
    return (1 * (v[:, None] >= boundaries)) @ ones(boundaries.shape[0])


a = torch.randint(-5, 6, (6,))
b = torch.randint(0, 4, (4,))
print("a", a, "b", b)
print("arange", arange(5), arange(5).dtype)
print("where", where(a > 0, a, -1))
print("ones", ones(4), "sum", sum(a), sum(a).shape, torch.equal(sum(a), a.sum(0, keepdim=True)))
print("outer", outer(a[:3], b[:2]).tolist(), torch.equal(outer(a, b), torch.outer(a, b)))
m = torch.arange(16).view(4, 4)
print("diag", diag(m), torch.equal(diag(m), m.diag()))
print("eye", eye(3), torch.equal(eye(3), torch.eye(3, dtype=torch.long)))
print("triu", triu(3), torch.equal(triu(4), torch.ones(4, 4, dtype=torch.long).triu()))
print("cumsum", cumsum(a), torch.equal(cumsum(a), a.cumsum(0)))
print("diff", diff(a, 6), torch.diff(a, prepend=torch.tensor([0])))
print("vstack", vstack(b, b * 2), torch.equal(vstack(b, b * 2), torch.vstack([b, b * 2])))
print("roll", roll(a, 6), torch.equal(roll(a, 6), a.roll(-1)))
print("flip", flip(a, 6), torch.equal(flip(a, 6), a.flip(0)))
g = a > 0
print("compress", compress(g, a, 6), a[g])
print("pad_to", pad_to(a, 6, 8), pad_to(a, 6, 3))
vals = torch.randint(1, 9, (3, 5))
lengths = torch.tensor([2, 5, 0])
print("sequence_mask", sequence_mask(vals, lengths).tolist())
print("bincount", bincount(b, 5), torch.bincount(b, minlength=5))
link = torch.tensor([0, 1, 0, 2, 2, 3])
print("scatter_add", scatter_add(a, link, 4), torch.zeros(4, dtype=a.dtype).scatter_add(0, link, a))
print("flatten", flatten(m[:2, :3], 2, 3), m[:2, :3].flatten())
print("linspace", linspace(0.0, 1.0, 5), linspace(1, 2, 1), torch.linspace(0, 1, 5))
print("heaviside", heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5])),
      torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5])))
print("repeat", repeat(b, 2), b.repeat(2, 1))
bounds = torch.tensor([-2, 0, 3])
print("bucketize", bucketize(a, bounds), torch.bucketize(a, bounds, right=True))

# the mixed-dtype results the puzzles produce
print((arange(3) / 2).dtype, (arange(3) // 2).dtype, (arange(3) * 1.0).dtype, where(arange(3) > 0, 1.5, 0).dtype)
print((torch.tensor([True, False]) * 1).dtype, (torch.tensor([True]) + torch.tensor([True])), ~torch.tensor([1, 0]))
print(torch.tensor(range(0)), torch.tensor(range(0)).dtype, torch.tensor(range(3, 9, 2)))
print(torch.tensor([range(2), range(2)]))
try:
    a @ b
except RuntimeError as e:
    print("RuntimeError", e)
try:
    where(a > 0, a, -1.0).long() @ eye(4)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    arange(3).float() @ arange(3)
except RuntimeError as e:
    print("RuntimeError", e)
