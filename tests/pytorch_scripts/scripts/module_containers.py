"""Module containers and utilities that model-building code leans on: nn.Sequential slicing, append, insert,
extend, pop, `+`, `*` and del; ModuleList insert / extend / `+=` / slicing; ModuleDict update / pop / items
order; ParameterList and ParameterDict; parameters() deduplicating tied weights and remove_duplicate=False;
deepcopy keeping ties; parameters_to_vector / vector_to_parameters; nn.utils.fusion.fuse_conv_bn_eval;
nn.utils.skip_init; named_parameters(prefix=, recurse=False); apply() for init; register_parameter(None);
zero_grad(set_to_none=False); half()/double() round trips; and nn.Identity's ignored arguments."""
import copy

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(107)

seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
print(seq[1:3], len(seq[::2]), type(seq[-1]).__name__)
seq.append(nn.Softmax(dim=-1))
seq.insert(1, nn.Dropout(0.0))
seq.extend([nn.Identity(54, unused="x")])
popped = seq.pop(2)
del seq[-1]
print("after edits", [type(m).__name__ for m in seq], type(popped).__name__)
doubled = nn.Sequential(nn.ReLU()) * 2
added = nn.Sequential(nn.Linear(2, 2)) + nn.Sequential(nn.ReLU())
print("mul/add", len(doubled), doubled[0] is doubled[1], [type(m).__name__ for m in added])
print("forward", seq(torch.randn(3, 4)).sum(-1))

layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
layers.insert(0, nn.ReLU())
layers.extend([nn.Tanh()])
layers += nn.ModuleList([nn.Sigmoid()])
print("modulelist", [type(m).__name__ for m in layers], type(layers[1:3]).__name__, len(layers[1:3]))
heads = nn.ModuleDict({"cls": nn.Linear(8, 3), "reg": nn.Linear(8, 1)})
heads.update([("aux", nn.Linear(8, 2))])
heads["cls2"] = nn.Linear(8, 3)
removed = heads.pop("reg")
print("moduledict", list(heads.keys()), type(removed).__name__, "aux" in heads, len(heads))
plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
plist.append(nn.Parameter(torch.full((1,), 2.0)))
plist.extend([torch.ones(2, 2)])
print("parameterlist", [tuple(p.shape) for p in plist], [type(p).__name__ for p in plist][-1], sum(p.numel() for p in plist))
pdict = nn.ParameterDict({"scale": nn.Parameter(torch.ones(1)), "shift": torch.zeros(1)})
pdict["gain"] = nn.Parameter(torch.tensor([3.0]))
print("parameterdict", sorted(pdict.keys()), type(pdict["shift"]).__name__, [n for n, _ in pdict.named_parameters()])


class TiedLM(nn.Module):
    def __init__(self, vocab=10, dim=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab, bias=False)
        self.proj.weight = self.embed.weight
        self.register_parameter("unused", None)
        self.register_buffer("mask", torch.ones(vocab))

    def forward(self, ids):
        return self.proj(self.embed(ids))


lm = TiedLM()
print("tied", len(list(lm.parameters())), [n for n, _ in lm.named_parameters()], [n for n, _ in lm.named_parameters(remove_duplicate=False)])
print("prefix", [n for n, _ in lm.named_parameters(prefix="model")], [n for n, _ in lm.named_parameters(recurse=False)], lm.unused)
clone = copy.deepcopy(lm)
print("deepcopy keeps tie", clone.proj.weight is clone.embed.weight, clone.proj.weight is lm.proj.weight)
vec = parameters_to_vector(lm.parameters())
print("to vector", vec.shape, vec[:3])
vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32), lm.parameters())
print("from vector", lm.embed.weight[1], lm.proj.weight[1])
lm(torch.tensor([1, 2])).sum().backward()
lm.zero_grad(set_to_none=False)
print("zero_grad keeps tensors", lm.embed.weight.grad.abs().sum().item())
lm.zero_grad()
print("set_to_none", lm.embed.weight.grad)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        if m.bias is not None:
            nn.init.zeros_(m.bias)


net = nn.Sequential(nn.Linear(3, 3), nn.Sequential(nn.Linear(3, 1)))
net.apply(init_weights)
print("apply", net(torch.ones(1, 3)).item())
skipped = nn.utils.skip_init(nn.Linear, 4, 2)
print("skip_init", skipped.weight.shape, type(skipped).__name__)

conv, bn = nn.Conv2d(3, 4, 3, bias=True), nn.BatchNorm2d(4)
bn.train()
for _ in range(3):
    bn(conv(torch.randn(4, 3, 6, 6)))
conv.eval()
bn.eval()
fused = nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
probe = torch.randn(2, 3, 6, 6)
print("fuse_conv_bn_eval", torch.allclose(fused(probe), bn(conv(probe)), atol=1e-5), fused.bias.detach().round(decimals=4))
lin, bn1 = nn.Linear(5, 3), nn.BatchNorm1d(3)
bn1.train()
bn1(lin(torch.randn(16, 5)))
lin.eval()
bn1.eval()
fused_lin = nn.utils.fusion.fuse_linear_bn_eval(lin, bn1)
x = torch.randn(4, 5)
print("fuse_linear_bn_eval", torch.allclose(fused_lin(x), bn1(lin(x)), atol=1e-5))

half = copy.deepcopy(net).half()
print("half", half[0].weight.dtype, half(torch.ones(1, 3, dtype=torch.float16)).dtype, half.double()[0].weight.dtype)
frozen = copy.deepcopy(net).requires_grad_(False)
print("requires_grad_", [p.requires_grad for p in frozen.parameters()], sum(p.numel() for p in net.parameters() if p.requires_grad))
print("children", [type(c).__name__ for c in net.children()], [n for n, _ in net.named_modules()], [n for n, _ in lm.named_buffers()])
