# amdegroot/ssd.pytorch, trimmed: box_utils (point_form, center_size, intersect/jaccard with
# expand and clamp, match with index_fill_ and the best-prior loop, encode/decode with log/exp and
# variances, log_sum_exp on x.data.max()), PriorBox with itertools.product and clamp_, L2Norm with
# init.constant_, MultiBoxLoss with hard negative mining (double sort, idx_rank < num_neg, loss_c[pos]
# = 0, expand_as, smooth_l1_loss with size_average=False), Variable, .data and torch.Tensor(...).
from itertools import product as product
from math import sqrt as sqrt

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
from torch.autograd import Variable

torch.manual_seed(0)


def point_form(boxes):
    return torch.cat((boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2), 1)


def center_size(boxes):
    return torch.cat(((boxes[:, 2:] + boxes[:, :2]) / 2, boxes[:, 2:] - boxes[:, :2]), 1)


def intersect(box_a, box_b):
    A = box_a.size(0)
    B = box_b.size(0)
    max_xy = torch.min(box_a[:, 2:].unsqueeze(1).expand(A, B, 2), box_b[:, 2:].unsqueeze(0).expand(A, B, 2))
    min_xy = torch.max(box_a[:, :2].unsqueeze(1).expand(A, B, 2), box_b[:, :2].unsqueeze(0).expand(A, B, 2))
    inter = torch.clamp((max_xy - min_xy), min=0)
    return inter[:, :, 0] * inter[:, :, 1]


def jaccard(box_a, box_b):
    inter = intersect(box_a, box_b)
    area_a = ((box_a[:, 2] - box_a[:, 0]) * (box_a[:, 3] - box_a[:, 1])).unsqueeze(1).expand_as(inter)
    area_b = ((box_b[:, 2] - box_b[:, 0]) * (box_b[:, 3] - box_b[:, 1])).unsqueeze(0).expand_as(inter)
    union = area_a + area_b - inter
    return inter / union


def match(threshold, truths, priors, variances, labels, loc_t, conf_t, idx):
    overlaps = jaccard(truths, point_form(priors))
    best_prior_overlap, best_prior_idx = overlaps.max(1, keepdim=True)
    best_truth_overlap, best_truth_idx = overlaps.max(0, keepdim=True)
    best_truth_idx.squeeze_(0)
    best_truth_overlap.squeeze_(0)
    best_prior_idx.squeeze_(1)
    best_prior_overlap.squeeze_(1)
    best_truth_overlap.index_fill_(0, best_prior_idx, 2)
    for j in range(best_prior_idx.size(0)):
        best_truth_idx[best_prior_idx[j]] = j
    matches = truths[best_truth_idx]
    conf = labels[best_truth_idx] + 1
    conf[best_truth_overlap < threshold] = 0
    loc = encode(matches, priors, variances)
    loc_t[idx] = loc
    conf_t[idx] = conf


def encode(matched, priors, variances):
    g_cxcy = (matched[:, :2] + matched[:, 2:]) / 2 - priors[:, :2]
    g_cxcy /= (variances[0] * priors[:, 2:])
    g_wh = (matched[:, 2:] - matched[:, :2]) / priors[:, 2:]
    g_wh = torch.log(g_wh) / variances[1]
    return torch.cat([g_cxcy, g_wh], 1)


def decode(loc, priors, variances):
    boxes = torch.cat((priors[:, :2] + loc[:, :2] * variances[0] * priors[:, 2:],
                       priors[:, 2:] * torch.exp(loc[:, 2:] * variances[1])), 1)
    boxes[:, :2] -= boxes[:, 2:] / 2
    boxes[:, 2:] += boxes[:, :2]
    return boxes


def log_sum_exp(x):
    x_max = x.data.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


class PriorBox(object):
    def __init__(self, cfg):
        super(PriorBox, self).__init__()
        self.image_size = cfg['min_dim']
        self.variance = cfg['variance'] or [0.1]
        self.feature_maps = cfg['feature_maps']
        self.min_sizes = cfg['min_sizes']
        self.max_sizes = cfg['max_sizes']
        self.steps = cfg['steps']
        self.aspect_ratios = cfg['aspect_ratios']
        self.clip = cfg['clip']

    def forward(self):
        mean = []
        for k, f in enumerate(self.feature_maps):
            for i, j in product(range(f), repeat=2):
                f_k = self.image_size / self.steps[k]
                cx = (j + 0.5) / f_k
                cy = (i + 0.5) / f_k
                s_k = self.min_sizes[k] / self.image_size
                mean += [cx, cy, s_k, s_k]
                s_k_prime = sqrt(s_k * (self.max_sizes[k] / self.image_size))
                mean += [cx, cy, s_k_prime, s_k_prime]
                for ar in self.aspect_ratios[k]:
                    mean += [cx, cy, s_k * sqrt(ar), s_k / sqrt(ar)]
                    mean += [cx, cy, s_k / sqrt(ar), s_k * sqrt(ar)]
        output = torch.Tensor(mean).view(-1, 4)
        if self.clip:
            output.clamp_(max=1, min=0)
        return output


class L2Norm(nn.Module):
    def __init__(self, n_channels, scale):
        super(L2Norm, self).__init__()
        self.n_channels = n_channels
        self.gamma = scale or None
        self.eps = 1e-10
        self.weight = nn.Parameter(torch.Tensor(self.n_channels))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.gamma)

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x = torch.div(x, norm)
        out = self.weight.unsqueeze(0).unsqueeze(2).unsqueeze(3).expand_as(x) * x
        return out


class MultiBoxLoss(nn.Module):
    def __init__(self, num_classes, overlap_thresh, neg_pos, variance):
        super(MultiBoxLoss, self).__init__()
        self.num_classes = num_classes
        self.threshold = overlap_thresh
        self.negpos_ratio = neg_pos
        self.variance = variance

    def forward(self, predictions, targets):
        loc_data, conf_data, priors = predictions
        num = loc_data.size(0)
        priors = priors[:loc_data.size(1), :]
        num_priors = (priors.size(0))
        loc_t = torch.Tensor(num, num_priors, 4)
        conf_t = torch.LongTensor(num, num_priors)
        for idx in range(num):
            truths = targets[idx][:, :-1].data
            labels = targets[idx][:, -1].data
            defaults = priors.data
            match(self.threshold, truths, defaults, self.variance, labels, loc_t, conf_t, idx)
        loc_t = Variable(loc_t, requires_grad=False)
        conf_t = Variable(conf_t, requires_grad=False)
        pos = conf_t > 0
        num_pos = pos.sum(dim=1, keepdim=True)
        pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
        loc_p = loc_data[pos_idx].view(-1, 4)
        loc_t = loc_t[pos_idx].view(-1, 4)
        loss_l = F.smooth_l1_loss(loc_p, loc_t, size_average=False)
        batch_conf = conf_data.view(-1, self.num_classes)
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))
        loss_c = loss_c.view(num, -1)
        loss_c[pos] = 0
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_pos = pos.long().sum(1, keepdim=True)
        num_neg = torch.clamp(self.negpos_ratio * num_pos, max=pos.size(1) - 1)
        neg = idx_rank < num_neg.expand_as(idx_rank)
        pos_idx = pos.unsqueeze(2).expand_as(conf_data)
        neg_idx = neg.unsqueeze(2).expand_as(conf_data)
        conf_p = conf_data[(pos_idx + neg_idx).gt(0)].view(-1, self.num_classes)
        targets_weighted = conf_t[(pos + neg).gt(0)]
        loss_c = F.cross_entropy(conf_p, targets_weighted, size_average=False)
        N = num_pos.data.sum()
        loss_l /= N
        loss_c /= N
        return loss_l, loss_c


cfg = {'num_classes': 3, 'feature_maps': [4, 2], 'min_dim': 32, 'steps': [8, 16], 'min_sizes': [6, 14],
       'max_sizes': [14, 24], 'aspect_ratios': [[2], [2, 3]], 'variance': [0.1, 0.2], 'clip': True}
priors = PriorBox(cfg).forward()
print('priors', tuple(priors.shape), [round(v, 4) for v in priors[5].tolist()], [round(v, 4) for v in priors[-1].tolist()])
boxes = torch.tensor([[0.1, 0.1, 0.4, 0.5], [0.5, 0.4, 0.9, 0.9]])
print('jaccard', [[round(v, 4) for v in r] for r in jaccard(boxes, point_form(priors[:3])).tolist()])
enc = encode(boxes, priors[:2], cfg['variance'])
print('decode(encode)', [[round(v, 4) for v in r] for r in decode(enc, priors[:2], cfg['variance']).tolist()])
print('center_size', center_size(boxes).tolist())

n_anchor = [4, 6]
source_convs = nn.ModuleList([nn.Conv2d(3, 8, 3, stride=8, padding=1), nn.Conv2d(8, 8, 3, stride=2, padding=1)])
l2norm = L2Norm(8, 20)
loc_layers = nn.ModuleList([nn.Conv2d(8, n * 4, 3, padding=1) for n in n_anchor])
conf_layers = nn.ModuleList([nn.Conv2d(8, n * cfg['num_classes'], 3, padding=1) for n in n_anchor])
params = list(source_convs.parameters()) + list(l2norm.parameters()) + list(loc_layers.parameters()) + list(conf_layers.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i).view_as(p) * (1.0 / p[0].numel()) ** 0.5)
print('l2norm weight', l2norm.weight[:3].tolist())


def ssd_forward(x):
    sources = []
    s = F.relu(source_convs[0](x))
    sources.append(l2norm(s))
    sources.append(F.relu(source_convs[1](s)))
    loc, conf = [], []
    for (x, l, c) in zip(sources, loc_layers, conf_layers):
        loc.append(l(x).permute(0, 2, 3, 1).contiguous())
        conf.append(c(x).permute(0, 2, 3, 1).contiguous())
    loc = torch.cat([o.view(o.size(0), -1) for o in loc], 1)
    conf = torch.cat([o.view(o.size(0), -1) for o in conf], 1)
    return loc.view(loc.size(0), -1, 4), conf.view(conf.size(0), -1, cfg['num_classes']), priors


images = Variable(torch.cos(torch.arange(2 * 3 * 32 * 32, dtype=torch.float32) * 0.013).view(2, 3, 32, 32))
targets = [Variable(torch.tensor([[0.1, 0.1, 0.4, 0.5, 0.0], [0.5, 0.4, 0.9, 0.9, 1.0]]), volatile=True),
           Variable(torch.tensor([[0.2, 0.3, 0.7, 0.8, 1.0]]), volatile=True)]
criterion = MultiBoxLoss(cfg['num_classes'], 0.5, 3, cfg['variance'])
optimizer = torch.optim.SGD(params, lr=1e-2, momentum=0.9, weight_decay=5e-4)
for iteration in range(3):
    out = ssd_forward(images)
    optimizer.zero_grad()
    loss_l, loss_c = criterion(out, targets)
    loss = loss_l + loss_c
    loss.backward()
    optimizer.step()
    print('iter ' + repr(iteration) + ' || Loss: %.4f || loc %.4f conf %.4f' % (loss.data.item(), loss_l.data.item(), loss_c.data.item()))
loc_data, conf_data, _ = out
scores = F.softmax(conf_data, dim=-1)
decoded = decode(loc_data[0].data, priors, cfg['variance'])
best = scores[0, :, 1:].max(0)
print('best per class', [round(v, 4) for v in best[0].tolist()], best[1].tolist())
print('decoded', [round(v, 4) for v in decoded[best[1][0]].tolist()])
print('log_sum_exp', [round(v, 4) for v in log_sum_exp(torch.tensor([[1.0, 2.0, 3.0], [100.0, 100.0, 0.0]])).flatten().tolist()])
