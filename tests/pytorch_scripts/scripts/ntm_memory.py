"""Memory-augmented networks as loudinthecloud/pytorch-ntm and the DNC implementations write them:
NTM content addressing with F.cosine_similarity against every memory row, interpolation with the
previous weighting, circular convolution shift via torch.cat wrap-around and F.conv1d, sharpening
with pow and normalisation, erase/add writes with torch.ger-style outer products, a copy-task
controller, and an end-to-end memory network (MemN2N) with temporal encoding and position
encoding of sentences."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _split_cols(mat, lengths):
    assert mat.size()[1] == sum(lengths), "Lengths must be summed to num columns"
    l = torch.cumsum(torch.tensor([0] + list(lengths)), dim=0).tolist()
    results = []
    for s, e in zip(l[:-1], l[1:]):
        results += [mat[:, s:e]]
    return results


def _convolve(w, s):
    """Circular convolution implementation."""
    assert s.size(0) == 3
    t = torch.cat([w[-1:], w, w[:1]])
    c = F.conv1d(t.view(1, 1, -1), s.view(1, 1, -1)).view(-1)
    return c


class NTMMemory(nn.Module):
    def __init__(self, N, M):
        super(NTMMemory, self).__init__()
        self.N, self.M = N, M
        self.register_buffer("mem_bias", torch.Tensor(N, M))
        stdev = 1 / (torch.sqrt(torch.tensor(float(N + M))))
        nn.init.uniform_(self.mem_bias, -stdev.item(), stdev.item())

    def reset(self, batch_size):
        self.batch_size = batch_size
        self.memory = self.mem_bias.clone().repeat(batch_size, 1, 1)

    def read(self, w):
        return torch.matmul(w.unsqueeze(1), self.memory).squeeze(1)

    def write(self, w, e, a):
        self.prev_mem = self.memory
        self.memory = torch.Tensor(self.batch_size, self.N, self.M)
        erase = torch.matmul(w.unsqueeze(-1), e.unsqueeze(1))
        add = torch.matmul(w.unsqueeze(-1), a.unsqueeze(1))
        self.memory = self.prev_mem * (1 - erase) + add

    def address(self, k, β, g, s, γ, w_prev):
        wc = self._similarity(k, β)
        wg = self._interpolate(w_prev, wc, g)
        ŵ = self._shift(wg, s)
        return self._sharpen(ŵ, γ)

    def _similarity(self, k, β):
        k = k.view(self.batch_size, 1, -1)
        w = F.softmax(β * F.cosine_similarity(self.memory + 1e-16, k + 1e-16, dim=-1), dim=1)
        return w

    def _interpolate(self, w_prev, wc, g):
        return g * wc + (1 - g) * w_prev

    def _shift(self, wg, s):
        result = torch.zeros(wg.size())
        for b in range(self.batch_size):
            result[b] = _convolve(wg[b], s[b])
        return result

    def _sharpen(self, ŵ, γ):
        w = ŵ ** γ
        w = torch.div(w, torch.sum(w, dim=1).view(-1, 1) + 1e-16)
        return w


class NTMHead(nn.Module):
    def __init__(self, memory, controller_size):
        super().__init__()
        self.memory = memory
        self.read_lengths = [memory.M, 1, 1, 3, 1]
        self.write_lengths = [memory.M, 1, 1, 3, 1, memory.M, memory.M]
        self.fc_read = nn.Linear(controller_size, sum(self.read_lengths))
        self.fc_write = nn.Linear(controller_size, sum(self.write_lengths))
        for fc in (self.fc_read, self.fc_write):
            nn.init.xavier_uniform_(fc.weight, gain=1.4)
            nn.init.normal_(fc.bias, std=0.01)

    def _address(self, k, β, g, s, γ, w_prev):
        k = k.clone()
        β = F.softplus(β)
        g = torch.sigmoid(g)
        s = F.softmax(s, dim=1)
        γ = 1 + F.softplus(γ)
        return self.memory.address(k, β, g, s, γ, w_prev)

    def read(self, h, w_prev):
        k, β, g, s, γ = _split_cols(self.fc_read(h), self.read_lengths)
        w = self._address(k, β, g, s, γ, w_prev)
        return self.memory.read(w), w

    def write(self, h, w_prev):
        k, β, g, s, γ, e, a = _split_cols(self.fc_write(h), self.write_lengths)
        e = torch.sigmoid(e)
        w = self._address(k, β, g, s, γ, w_prev)
        self.memory.write(w, e, a)
        return w


N, M, ctrl, B, width = 10, 6, 24, 2, 4
memory = NTMMemory(N, M)
controller = nn.LSTMCell(width + 1 + M, ctrl)
read_head, write_head = NTMHead(memory, ctrl), NTMHead(memory, ctrl)
out_fc = nn.Linear(ctrl + M, width)
params = [p for m in (controller, read_head, write_head, out_fc) for p in m.parameters()]
print("params", sum(p.numel() for p in params), "buffers", [n for n, _ in memory.named_buffers()])
optimizer = torch.optim.RMSprop(params, momentum=0.9, alpha=0.95, lr=1e-3)


def run_copy(seq):
    T = seq.size(0)
    memory.reset(B)
    h = torch.zeros(B, ctrl)
    c = torch.zeros(B, ctrl)
    r = torch.zeros(B, M)
    w_r = torch.zeros(B, N)
    w_r[:, 0] = 1
    w_w = w_r.clone()
    inp = torch.zeros(T + 1, B, width + 1)
    inp[:T, :, :width] = seq
    inp[T, :, width] = 1.0  # delimiter
    for t in range(T + 1):
        h, c = controller(torch.cat([inp[t], r], dim=1), (h, c))
        w_w = write_head.write(h, w_w)
        r, w_r = read_head.read(h, w_r)
    outs = []
    zero = torch.zeros(B, width + 1)
    for t in range(T):
        h, c = controller(torch.cat([zero, r], dim=1), (h, c))
        r, w_r = read_head.read(h, w_r)
        outs.append(torch.sigmoid(out_fc(torch.cat([h, r], dim=1))))
    return torch.stack(outs), w_r, w_w


for step in range(8):
    seq = torch.bernoulli(torch.full((3, B, width), 0.5))
    pred, w_r, w_w = run_copy(seq)
    loss = F.binary_cross_entropy(pred, seq)
    optimizer.zero_grad()
    loss.backward()
    for p in filter(lambda p: p.grad is not None, params):
        p.grad.data.clamp_(-10, 10)
    optimizer.step()
    if step % 4 == 3:
        cost = torch.sum(torch.abs(pred.clone().data.apply_(lambda x: 0 if x < 0.5 else 1) - seq.data))
        print(f"step {step}: loss {loss.item():.4f} bit errors {cost.item() / B}")
print("weightings sum to 1", w_r.sum(1).round(decimals=5).tolist(), w_w.sum(1).round(decimals=5).tolist())
print("read focus", w_r.argmax(1).tolist(), "memory", tuple(memory.memory.shape), memory.memory.grad_fn is not None)
print("circular shift", _convolve(torch.tensor([0.0, 1.0, 0.0, 0.0]), torch.tensor([0.0, 0.0, 1.0])).tolist(),
      _convolve(torch.tensor([0.1, 0.2, 0.3, 0.4]), torch.tensor([1.0, 0.0, 0.0])).tolist())


class MemN2N(nn.Module):
    def __init__(self, vocab, dim, hops, max_sent, sent_len):
        super().__init__()
        self.hops = hops
        self.A = nn.ModuleList([nn.Embedding(vocab, dim, padding_idx=0) for _ in range(hops + 1)])
        self.TA = nn.Parameter(torch.randn(hops + 1, max_sent, dim) * 0.1)
        J, d = sent_len, dim
        j = torch.arange(1, J + 1).float().unsqueeze(1)
        k = torch.arange(1, d + 1).float().unsqueeze(0)
        self.register_buffer("encoding", (1 - j / J) - (k / d) * (1 - 2 * j / J))

    def forward(self, story, query):
        u = (self.A[0](query) * self.encoding).sum(1)
        attn = []
        for hop in range(self.hops):
            m = (self.A[hop](story) * self.encoding).sum(2) + self.TA[hop]
            c = (self.A[hop + 1](story) * self.encoding).sum(2) + self.TA[hop + 1]
            p = F.softmax(torch.bmm(m, u.unsqueeze(2)).squeeze(2), dim=-1)
            attn.append(p)
            o = torch.bmm(p.unsqueeze(1), c).squeeze(1)
            u = u + o
        logits = u @ self.A[-1].weight.t()
        return logits, torch.stack(attn, 1)


memn2n = MemN2N(vocab=20, dim=8, hops=3, max_sent=5, sent_len=4)
story = torch.randint(1, 20, (2, 5, 4))
story[:, :, 3] = 0
query = torch.randint(1, 20, (2, 4))
answer = torch.tensor([3, 7])
opt = torch.optim.SGD(memn2n.parameters(), lr=0.05)
for step in range(20):
    logits, attn = memn2n(story, query)
    loss = F.cross_entropy(logits, answer)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(memn2n.parameters(), 40.0)
    opt.step()
print("memn2n loss", round(loss.item(), 4), "attention", tuple(attn.shape), attn[0, -1].round(decimals=3).tolist())
print("position encoding", memn2n.encoding[:2].round(decimals=3).tolist(), "pad row", memn2n.A[0].weight[0].abs().sum().item())
