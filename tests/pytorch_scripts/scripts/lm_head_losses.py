"""Language-model head losses as recent training code writes them: PyTorch 2.13's
nn.LinearCrossEntropyLoss / F.linear_cross_entropy (the vocabulary projection fused into the loss)
checked against Linear + CrossEntropyLoss, padding masked with ignore_index=-100 after shifting
labels, label smoothing, PaLM's z-loss on the log-partition, a memory-saving chunked cross entropy
written by hand with torch.split, per-token losses with reduction='none', perplexity, and
K-dimensional (multi-token prediction) heads via out_features."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab, dim, batch, seq = 50, 16, 3, 7
hidden = torch.randn(batch, seq, dim, requires_grad=True)
input_ids = torch.randint(0, vocab, (batch, seq))
attention_mask = torch.ones(batch, seq, dtype=torch.long)
attention_mask[1, 5:] = 0
attention_mask[2, 3:] = 0
labels = input_ids.masked_fill(attention_mask == 0, -100)
shift_hidden = hidden[:, :-1, :].reshape(-1, dim)
shift_labels = labels[:, 1:].reshape(-1)
print("tokens counted", int((shift_labels != -100).sum()), "of", shift_labels.numel())

fused = nn.LinearCrossEntropyLoss(dim, vocab)
print(fused)
lm_head = nn.Linear(dim, vocab, bias=False)
lm_head.weight.data.copy_(fused.linear.weight.data)
loss_fused = fused(shift_hidden, shift_labels)
logits = lm_head(shift_hidden)
loss_ref = nn.CrossEntropyLoss()(logits, shift_labels)
print("fused", round(loss_fused.item(), 5), "reference", round(loss_ref.item(), 5), loss_fused.grad_fn.name())
g1, = torch.autograd.grad(loss_fused, hidden)
g2, = torch.autograd.grad(loss_ref, hidden)
print("same input grads", torch.allclose(g1, g2, atol=1e-6), "padding rows get no grad", g1[2, 3:].abs().sum().item())
print("functional", round(F.linear_cross_entropy(shift_hidden, fused.linear.weight, shift_labels).item(), 5))

smooth = nn.LinearCrossEntropyLoss(dim, vocab, label_smoothing=0.1, bias=True)
print("smoothed", round(smooth(shift_hidden, shift_labels).item(), 5), "bias shape", tuple(smooth.linear.bias.shape))
per_token = F.linear_cross_entropy(shift_hidden, fused.linear.weight, shift_labels, reduction="none")
print("per token", per_token.view(batch, seq - 1).round(decimals=3).tolist()[2])
print("mean over real tokens", round((per_token.sum() / (shift_labels != -100).sum()).item(), 5))


def chunked_cross_entropy(hidden, weight, labels, chunk_size=5):
    total = hidden.new_zeros(())
    count = 0
    for h, y in zip(torch.split(hidden, chunk_size), torch.split(labels, chunk_size)):
        logits = h @ weight.t()
        total = total + F.cross_entropy(logits.float(), y, reduction="sum", ignore_index=-100)
        count += int((y != -100).sum())
    return total / count


chunked = chunked_cross_entropy(shift_hidden, fused.linear.weight, shift_labels)
print("chunked", round(chunked.item(), 5), torch.allclose(chunked, loss_fused))

# z-loss: penalise the log-partition function
log_z = torch.logsumexp(logits, dim=-1)
mask = shift_labels != -100
z_loss = 1e-4 * (log_z[mask] ** 2).mean()
print("z-loss", f"{z_loss.item():.6f}", "log Z range", round(log_z.min().item(), 3), round(log_z.max().item(), 3))
print("perplexity", round(math.exp(loss_ref.item()), 3), "uniform would be", vocab)

# multi-token prediction: predict the next 2 tokens with one K-dimensional head
mtp = nn.LinearCrossEntropyLoss(dim, vocab, out_features=(2,), reduction="none", ignore_index=-100)
targets = torch.stack([labels[:, 1:-1], labels[:, 2:]], dim=-1).reshape(-1, 2)
h = hidden[:, :-2, :].reshape(-1, dim)
losses = mtp(h, targets)
print("mtp", tuple(mtp.linear.weight.shape), tuple(losses.shape), round(losses.sum().item() / int((targets != -100).sum()), 5))
opt = torch.optim.AdamW(list(mtp.parameters()) + [hidden], lr=0.05)
for step in range(20):
    opt.zero_grad()
    l = mtp(hidden[:, :-2, :].reshape(-1, dim), targets)
    loss = l.sum() / (targets != -100).sum()
    loss.backward()
    opt.step()
print("mtp after training", round(loss.item(), 4))
probs = F.softmax(F.linear(hidden[0, :1].detach(), mtp.linear.weight).view(1, vocab, 2), dim=1)
print("prob mass per position", probs.sum(1).round(decimals=4).tolist())
try:
    F.linear_cross_entropy(hidden, fused.linear.weight, labels)
except RuntimeError as e:
    print("RuntimeError:", e)
