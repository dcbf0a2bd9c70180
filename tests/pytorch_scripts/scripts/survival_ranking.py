"""Survival analysis, ordinal regression and learning-to-rank losses as pycox, DeepSurv, CORAL
(Raschka's coral-pytorch) and allRank write them: the Cox partial likelihood with a flipped
logcumsumexp over risk sets sorted by time, Harrell's C-index by broadcasting, the discrete-time
negative log-likelihood (DeepHit style hazards with cumprod), CORAL's rank-consistent logits with a
shared weight and ordered biases, RankNet pairwise loss, ListNet's top-one softmax cross entropy,
LambdaRank-style NDCG deltas, and NDCG@k with torch.sort/topk/gather."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n = 40
x = torch.randn(n, 5)
true_beta = torch.tensor([0.8, -0.5, 0.0, 0.3, 0.0])
risk = x @ true_beta
time = torch.distributions.Exponential(risk.exp()).sample()
censor_time = torch.distributions.Exponential(torch.full((n,), 0.4)).sample()
event = (time <= censor_time).float()
time = torch.minimum(time, censor_time)
print("events", int(event.sum().item()), "median time", round(time.median().item(), 4))


def cox_ph_loss_sorted(log_h, events, eps=1e-7):
    """Requires the input to be sorted by descending duration time."""
    if events.dtype is torch.bool:
        events = events.float()
    events = events.view(-1)
    log_h = log_h.view(-1)
    gamma = log_h.max()
    log_cumsum_h = log_h.sub(gamma).exp().cumsum(0).add(eps).log().add(gamma)
    return -log_h.sub(log_cumsum_h).mul(events).sum().div(events.sum())


def cox_ph_loss(log_h, durations, events, eps=1e-7):
    idx = durations.sort(descending=True)[1]
    events = events[idx]
    log_h = log_h[idx]
    return cox_ph_loss_sorted(log_h, events, eps)


def cox_logcumsumexp(log_h, durations, events):
    order = torch.argsort(durations, descending=True)
    log_h, events = log_h[order], events[order]
    return -((log_h - torch.logcumsumexp(log_h, dim=0)) * events).sum() / events.sum()


net = nn.Sequential(nn.Linear(5, 16), nn.SELU(), nn.AlphaDropout(0.1), nn.Linear(16, 1, bias=False))
opt = torch.optim.Adam(net.parameters(), lr=0.02, weight_decay=1e-4)
for epoch in range(60):
    net.train()
    opt.zero_grad()
    log_h = net(x).squeeze(-1)
    loss = cox_ph_loss(log_h, time, event)
    loss.backward()
    opt.step()
net.eval()
with torch.no_grad():
    log_h = net(x).squeeze(-1)
print("cox loss", round(cox_ph_loss(log_h, time, event).item(), 4), round(cox_logcumsumexp(log_h, time, event).item(), 4))


def concordance_index(risk, time, event):
    comparable = (time[:, None] < time[None, :]) & event[:, None].bool()
    concordant = (risk[:, None] > risk[None, :]).float() + 0.5 * (risk[:, None] == risk[None, :]).float()
    return (concordant * comparable).sum() / comparable.sum()


print("c-index model", round(concordance_index(log_h, time, event).item(), 4),
      "oracle", round(concordance_index(risk, time, event).item(), 4))

# discrete-time survival: hazards per interval, survival = cumprod(1 - h)
cuts = torch.quantile(time, torch.tensor([0.25, 0.5, 0.75]))
idx_durations = torch.bucketize(time, cuts)
print("cuts", cuts.round(decimals=4).tolist(), "bins", torch.bincount(idx_durations, minlength=4).tolist())
phi = torch.randn(n, 4, requires_grad=True)


def nll_logistic_hazard(phi, idx_durations, events):
    y_bce = torch.zeros_like(phi).scatter(1, idx_durations.view(-1, 1), events.view(-1, 1))
    bce = F.binary_cross_entropy_with_logits(phi, y_bce, reduction="none")
    loss = bce.cumsum(1).gather(1, idx_durations.view(-1, 1)).view(-1)
    return loss.mean()


loss = nll_logistic_hazard(phi, idx_durations, event)
loss.backward()
print("logistic hazard nll", round(loss.item(), 4), "grad norm", round(phi.grad.norm().item(), 4))
surv = (1 - torch.sigmoid(phi.detach())).cumprod(dim=1)
print("survival curve", surv[0].round(decimals=4).tolist(), "monotone", bool((surv[:, 1:] <= surv[:, :-1]).all()))
print("log surv via logsigmoid", F.logsigmoid(-phi.detach()).cumsum(1)[0].exp().round(decimals=4).tolist())


# CORAL ordinal regression
class CoralLayer(nn.Module):
    def __init__(self, size_in, num_classes, preinit_bias=True):
        super().__init__()
        self.size_in, self.size_out = size_in, 1
        self.coral_weights = nn.Linear(self.size_in, 1, bias=False)
        if preinit_bias:
            self.coral_bias = nn.Parameter(torch.arange(num_classes - 1, 0, -1).float() / (num_classes - 1))
        else:
            self.coral_bias = nn.Parameter(torch.zeros(num_classes - 1).float())

    def forward(self, x):
        return self.coral_weights(x) + self.coral_bias


def levels_from_labelbatch(labels, num_classes, dtype=torch.float32):
    levels = []
    for label in labels:
        levels_from_label = (label > torch.arange(num_classes - 1)).to(dtype)
        levels.append(levels_from_label)
    return torch.stack(levels)


def coral_loss(logits, levels, importance_weights=None, reduction="mean"):
    term1 = F.logsigmoid(logits) * levels + (F.logsigmoid(logits) - logits) * (1 - levels)
    if importance_weights is not None:
        term1 *= importance_weights
    val = -torch.sum(term1, dim=1)
    if reduction == "mean":
        return torch.mean(val)
    return torch.sum(val) if reduction == "sum" else val


def proba_to_label(probas):
    predict_levels = probas > 0.5
    return torch.sum(predict_levels, dim=1)


labels = torch.bucketize(x[:, 0] + 0.3 * torch.randn(n), torch.tensor([-1.0, 0.0, 1.0]))
levels = levels_from_labelbatch(labels, num_classes=4)
print("levels", levels[:3].tolist(), levels.dtype)
coral = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), CoralLayer(8, 4))
opt = torch.optim.Adam(coral.parameters(), lr=0.05)
for epoch in range(80):
    opt.zero_grad()
    logits = coral(x)
    loss = coral_loss(logits, levels)
    loss.backward()
    opt.step()
probas = torch.sigmoid(coral(x))
pred = proba_to_label(probas)
print("coral loss", round(loss.item(), 4), "MAE", round((pred - labels).abs().float().mean().item(), 4),
      "rank-consistent", bool((probas[:, 1:] <= probas[:, :-1] + 1e-6).all()))
print("biases ordered", coral[2].coral_bias.data.round(decimals=3).tolist())

# learning to rank: 3 queries with 6 documents each
scores_true = torch.randint(0, 4, (3, 6)).float()
feats = torch.randn(3, 6, 4) + scores_true.unsqueeze(-1) * 0.5
scorer = nn.Linear(4, 1)


def ranknet_loss(s, y):
    diff = s.unsqueeze(-1) - s.unsqueeze(-2)
    target = (y.unsqueeze(-1) > y.unsqueeze(-2)).float()
    mask = (y.unsqueeze(-1) != y.unsqueeze(-2))
    return F.binary_cross_entropy_with_logits(diff[mask], target[mask])


def listnet_loss(s, y, eps=1e-10):
    preds_smax = F.softmax(s, dim=1)
    true_smax = F.softmax(y, dim=1)
    preds_smax = preds_smax + eps
    preds_log = torch.log(preds_smax)
    return torch.mean(-torch.sum(true_smax * preds_log, dim=1))


def dcg(y_sorted, k):
    gains = 2 ** y_sorted[:, :k] - 1
    discounts = torch.log2(torch.arange(2, k + 2, dtype=torch.float32))
    return (gains / discounts).sum(dim=1)


def ndcg_at_k(s, y, k=3):
    order = torch.argsort(s, dim=1, descending=True)
    ideal = torch.sort(y, dim=1, descending=True).values
    return dcg(torch.gather(y, 1, order), k) / dcg(ideal, k).clamp(min=1e-10)


opt = torch.optim.SGD(scorer.parameters(), lr=0.3)
for step in range(30):
    s = scorer(feats).squeeze(-1)
    loss = ranknet_loss(s, scores_true) + listnet_loss(s, scores_true)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print("step", step, "loss", round(loss.item(), 4), "ndcg@3", ndcg_at_k(s.detach(), scores_true).round(decimals=4).tolist())
s = scorer(feats).squeeze(-1).detach()
print("final ndcg@3", ndcg_at_k(s, scores_true).round(decimals=4).tolist())
top = torch.topk(s, k=2, dim=1)
print("top-2 docs", top.indices.tolist(), "their labels", scores_true.gather(1, top.indices).tolist())

# LambdaRank |delta NDCG| for swapping each pair, query 0
y0, s0 = scores_true[0], s[0]
rank = torch.empty_like(s0, dtype=torch.long)
rank[torch.argsort(s0, descending=True)] = torch.arange(6)
gain = 2 ** y0 - 1
disc = 1 / torch.log2(rank.float() + 2)
delta = (gain[:, None] - gain[None, :]) * (disc[:, None] - disc[None, :])
idcg = dcg(torch.sort(scores_true, descending=True).values, 6)[0]
print("max |delta ndcg|", round((delta.abs() / idcg).max().item(), 4), "ranks", rank.tolist())
print("margin ranking", round(F.margin_ranking_loss(s0[:3], s0[3:], torch.sign(y0[:3] - y0[3:]), margin=0.5).item(), 4))
