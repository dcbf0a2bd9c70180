"""Gradient utilities and parameter sharing as training code uses them: clip_grad_norm_ with
norm_type 2 / inf / 1, its returned total norm, error_if_nonfinite, foreach=, the newer
get_total_norm + clip_grads_with_norm_ pair, clip_grad_value_, per-layer gradient norms for logging,
gradient accumulation with loss scaling, weight tying (decoder.weight = encoder.weight) and what
parameters()/named_parameters(remove_duplicate=False)/state_dict report, parameters_to_vector /
vector_to_parameters round trips, a frozen-embedding fine-tune, nn.utils.fuse_conv_bn_eval, and
torch.nn.utils.skip_init-free manual init with torch.no_grad copy_."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

torch.manual_seed(0)


def make_grads(scale=1.0):
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    x, y = torch.randn(6, 4) * scale, torch.randn(6, 2)
    F.mse_loss(model(x), y).mul(100).backward()
    return model


model = make_grads()
raw = [p.grad.clone() for p in model.parameters()]
total = clip_grad_norm_(model.parameters(), max_norm=1.0)
print("total norm", round(total.item(), 4), total.dtype, "after", round(torch.stack([p.grad.norm() for p in model.parameters()]).norm().item(), 4))
print("scaled uniformly", all(torch.allclose(p.grad / g, (p.grad / g).flatten()[0].expand_as(g), atol=1e-5)
                              for p, g in zip(model.parameters(), raw) if g.abs().min() > 1e-6))
for norm_type in (float("inf"), 1.0, 2.0):
    for p, g in zip(model.parameters(), raw):
        p.grad = g.clone()
    t = clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=norm_type, foreach=False)
    print(norm_type, round(t.item(), 4), round(model[0].weight.grad.abs().max().item(), 5))
for p, g in zip(model.parameters(), raw):
    p.grad = g.clone()
grads = [p.grad for p in model.parameters()]
norm = torch.nn.utils.get_total_norm(grads, norm_type=2.0)
torch.nn.utils.clip_grads_with_norm_(model.parameters(), max_norm=2.0, total_norm=norm)
print("get_total_norm", round(norm.item(), 4), round(model[2].bias.grad.norm().item(), 5))
for p, g in zip(model.parameters(), raw):
    p.grad = g.clone()
clip_grad_value_(model.parameters(), clip_value=0.3)
print("clip value", model[2].bias.grad.tolist(), model[0].weight.grad.abs().max().item())
print("per layer", {n: round(p.grad.norm().item(), 4) for n, p in model.named_parameters()})
model[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(str(e)[:70])
print("nan total", clip_grad_norm_(model.parameters(), 1.0).item())

# gradient accumulation
torch.manual_seed(1)
net = nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data, target = torch.randn(8, 3), torch.randn(8, 1)
accum = 4
opt.zero_grad()
for i in range(accum):
    loss = F.mse_loss(net(data[i * 2:(i + 1) * 2]), target[i * 2:(i + 1) * 2]) / accum
    loss.backward()
full = nn.Linear(3, 1)
full.load_state_dict(net.state_dict())
F.mse_loss(full(data), target).backward()
print("accumulated == full batch", torch.allclose(net.weight.grad, full.weight.grad, atol=1e-6))
opt.step()


# weight tying
class TiedLM(nn.Module):
    def __init__(self, vocab=10, dim=4):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.decoder = nn.Linear(dim, vocab)
        self.decoder.weight = self.encoder.weight

    def forward(self, idx):
        return self.decoder(self.encoder(idx))


lm = TiedLM()
print("tied", lm.decoder.weight is lm.encoder.weight, len(list(lm.parameters())),
      [n for n, _ in lm.named_parameters()], [n for n, _ in lm.named_parameters(remove_duplicate=False)])
print("state_dict keys", list(lm.state_dict().keys()), sum(p.numel() for p in lm.parameters()))
out = lm(torch.tensor([1, 2, 3]))
F.cross_entropy(out, torch.tensor([2, 3, 4])).backward()
print("shared grad rows", lm.encoder.weight.grad.abs().sum(1).gt(0).nonzero().flatten().tolist())
vec = parameters_to_vector(lm.parameters())
print("vector", vec.shape, vec.grad_fn.name())
vector_to_parameters(torch.zeros_like(vec), lm.parameters())
print("zeroed", lm.encoder.weight.abs().sum().item(), lm.decoder.bias.abs().sum().item(),
      lm.decoder.weight is lm.encoder.weight)

# frozen embeddings, fine-tune the head
pretrained = torch.randn(10, 4)
emb = nn.Embedding.from_pretrained(pretrained, freeze=True)
head = nn.Linear(4, 2)
opt = torch.optim.Adam([p for p in list(emb.parameters()) + list(head.parameters()) if p.requires_grad], lr=0.1)
print("trainable", len(opt.param_groups[0]["params"]), emb.weight.requires_grad)
F.cross_entropy(head(emb(torch.tensor([0, 5]))), torch.tensor([1, 0])).backward()
opt.step()
print("embedding unchanged", torch.equal(emb.weight, pretrained), emb.weight.grad)

# conv-bn fusion for inference
conv, bn = nn.Conv2d(3, 4, 3, bias=False), nn.BatchNorm2d(4)
with torch.no_grad():
    bn.running_mean.copy_(torch.randn(4) * 0.1)
    bn.running_var.copy_(torch.rand(4) + 0.5)
    bn.weight.copy_(torch.randn(4))
    bn.bias.copy_(torch.randn(4))
conv.eval(), bn.eval()
fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
img = torch.randn(1, 3, 6, 6)
print("fused", fused.bias is not None, torch.allclose(fused(img), bn(conv(img)), atol=1e-5))
w = torch.empty(3, 3)
with torch.no_grad():
    w.copy_(torch.eye(3) * math.sqrt(2))
print(w.diagonal().round(decimals=4).tolist(), nn.init.calculate_gain("leaky_relu", 0.2))
