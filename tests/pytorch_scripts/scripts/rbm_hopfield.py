"""Energy-based classics as course notebooks write them: a Bernoulli RBM trained with CD-k
(torch.bernoulli sampling, F.linear, the free energy with F.softplus), persistent CD chains, a
classical Hopfield network storing +-1 patterns with the Hebbian rule and asynchronous sign updates,
the modern (dense) Hopfield update softmax(beta X^T xi), and a tiny Boltzmann-machine partition
function by enumerating states with itertools.product."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RBM(nn.Module):
    def __init__(self, n_vis=16, n_hin=8, k=2):
        super(RBM, self).__init__()
        self.W = nn.Parameter(torch.randn(n_hin, n_vis) * 1e-2)
        self.v_bias = nn.Parameter(torch.zeros(n_vis))
        self.h_bias = nn.Parameter(torch.zeros(n_hin))
        self.k = k

    def sample_from_p(self, p):
        return F.relu(torch.sign(p - torch.autograd.Variable(torch.rand(p.size()))))

    def v_to_h(self, v):
        p_h = torch.sigmoid(F.linear(v, self.W, self.h_bias))
        sample_h = self.sample_from_p(p_h)
        return p_h, sample_h

    def h_to_v(self, h):
        p_v = torch.sigmoid(F.linear(h, self.W.t(), self.v_bias))
        sample_v = self.sample_from_p(p_v)
        return p_v, sample_v

    def forward(self, v):
        pre_h1, h1 = self.v_to_h(v)
        h_ = h1
        for _ in range(self.k):
            pre_v_, v_ = self.h_to_v(h_)
            pre_h_, h_ = self.v_to_h(v_)
        return v, v_

    def free_energy(self, v):
        vbias_term = v.mv(self.v_bias)
        wx_b = F.linear(v, self.W, self.h_bias)
        hidden_term = wx_b.exp().add(1).log().sum(1)
        return (-hidden_term - vbias_term).mean()


# binary data: two prototypes with flipped bits
protos = torch.tensor([[1.0] * 8 + [0.0] * 8, [0.0, 1.0] * 8])
data = protos.repeat(16, 1)
flip = torch.bernoulli(torch.full(data.shape, 0.05))
data = (data - flip).abs()
print("data", data.shape, data.sum().item(), data.dtype)

rbm = RBM(k=1)
train_op = torch.optim.SGD(rbm.parameters(), 0.1)
for epoch in range(20):
    loss_ = []
    for i in range(0, 32, 8):
        v, v1 = rbm(data[i:i + 8])
        loss = rbm.free_energy(v) - rbm.free_energy(v1)
        loss_.append(loss.data)
        train_op.zero_grad()
        loss.backward()
        train_op.step()
    if epoch % 5 == 4:
        print("Training loss for {} epoch: {:.4f}".format(epoch, torch.stack(loss_).mean().item()))

with torch.no_grad():
    p_h, _ = rbm.v_to_h(protos)
    recon, _ = rbm.h_to_v(p_h)
    print("recon error", round(F.binary_cross_entropy(recon, protos).item(), 4))
    print("free energies", [round(rbm.free_energy(p[None]).item(), 4) for p in protos])
    softplus_fe = -(F.softplus(F.linear(protos, rbm.W, rbm.h_bias)).sum(1) + protos @ rbm.v_bias)
    print("softplus form", softplus_fe.round(decimals=4).tolist())

# persistent contrastive divergence with a manual update rule
W = torch.zeros(16, 8)
b, c = torch.zeros(16), torch.zeros(8)
chain = torch.bernoulli(torch.full((10, 16), 0.5))
for step in range(30):
    v0 = data[torch.randint(0, 32, (10,))]
    ph0 = torch.sigmoid(v0 @ W + c)
    for _ in range(2):
        h = torch.bernoulli(torch.sigmoid(chain @ W + c))
        chain = torch.bernoulli(torch.sigmoid(h @ W.T + b))
    phk = torch.sigmoid(chain @ W + c)
    W += 0.05 * (v0.T @ ph0 - chain.T @ phk) / 10
    b += 0.05 * (v0 - chain).mean(0)
    c += 0.05 * (ph0 - phk).mean(0)
print("pcd W norm", round(W.norm().item(), 4), "chain mean", round(chain.mean().item(), 4))


# classical Hopfield network
class Hopfield:
    def __init__(self, patterns):
        n = patterns.shape[1]
        self.W = (patterns.T @ patterns) / n
        self.W.fill_diagonal_(0)

    def energy(self, s):
        return -0.5 * s @ self.W @ s

    def recall(self, s, sweeps=3):
        s = s.clone()
        g = torch.Generator().manual_seed(3)
        for _ in range(sweeps):
            for i in torch.randperm(s.numel(), generator=g).tolist():
                s[i] = 1.0 if self.W[i] @ s >= 0 else -1.0
        return s


pats = torch.sign(torch.randn(3, 24))
pats[pats == 0] = 1
net = Hopfield(pats)
noisy = pats[1].clone()
noisy[:5] *= -1
print("energy noisy", round(net.energy(noisy).item(), 4), "stored", [round(net.energy(p).item(), 4) for p in pats])
rec = net.recall(noisy)
print("recall overlap", (rec == pats[1]).float().mean().item(), "energy", round(net.energy(rec).item(), 4))
print("W symmetric", torch.equal(net.W, net.W.T), "diag", net.W.diagonal().abs().sum().item())

# modern Hopfield: xi_new = X softmax(beta X^T xi)
X = F.normalize(torch.randn(32, 5), dim=0)  # five stored patterns as columns
xi = X[:, 2] + 0.3 * torch.randn(32)
for beta in (1.0, 8.0, 32.0):
    p = torch.softmax(beta * X.T @ xi, dim=0)
    xi_new = X @ p
    print(f"beta {beta}: p", p.round(decimals=3).tolist(), "cos", round(F.cosine_similarity(xi_new, X[:, 2], dim=0).item(), 4))

# exact partition function of a 4-unit Boltzmann machine
J = torch.randn(4, 4)
J = (J + J.T) / 2
J.fill_diagonal_(0)
h = torch.randn(4)
states = torch.tensor(list(itertools.product([-1.0, 1.0], repeat=4)))
E = -0.5 * torch.einsum("si,ij,sj->s", states, J, states) - states @ h
logZ = torch.logsumexp(-E, dim=0)
probs = torch.exp(-E - logZ)
print("states", states.shape, "logZ", round(logZ.item(), 4), "sum p", round(probs.sum().item(), 5))
print("magnetisation", (probs[:, None] * states).sum(0).round(decimals=4).tolist())
print("most likely", states[probs.argmax()].tolist(), round(probs.max().item(), 4))
