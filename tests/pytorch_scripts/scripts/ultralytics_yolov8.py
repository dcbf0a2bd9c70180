# ultralytics YOLOv8 pieces, trimmed: autopad/Conv (Conv2d+BatchNorm2d+SiLU, forward_fuse),
# Bottleneck, C2f (chunk + list extend + cat), SPPF (repeated MaxPool2d), DFL (softmax over reg_max
# bins read out by a frozen conv with arange weights), make_anchors (meshgrid indexing="ij",
# grid_cell_offset), dist2bbox/bbox2dist, bbox_iou with CIoU (atan, pow, clamp), the
# TaskAlignedAssigner (topk metrics, scatter_add_ of one_hot masks, argmax/gather of targets),
# fuse_conv_and_bn with torch.mm and torch.diag, and model.fuse() before inference.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def autopad(k, p=None, d=1):
    if d > 1:
        k = d * (k - 1) + 1 if isinstance(k, int) else [d * (x - 1) + 1 for x in k]
    if p is None:
        p = k // 2 if isinstance(k, int) else [x // 2 for x in k]
    return p


class Conv(nn.Module):
    default_act = nn.SiLU()

    def __init__(self, c1, c2, k=1, s=1, p=None, g=1, d=1, act=True):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, autopad(k, p, d), groups=g, dilation=d, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = self.default_act if act is True else act if isinstance(act, nn.Module) else nn.Identity()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

    def forward_fuse(self, x):
        return self.act(self.conv(x))


class Bottleneck(nn.Module):
    def __init__(self, c1, c2, shortcut=True, g=1, k=(3, 3), e=0.5):
        super().__init__()
        c_ = int(c2 * e)
        self.cv1 = Conv(c1, c_, k[0], 1)
        self.cv2 = Conv(c_, c2, k[1], 1, g=g)
        self.add = shortcut and c1 == c2

    def forward(self, x):
        return x + self.cv2(self.cv1(x)) if self.add else self.cv2(self.cv1(x))


class C2f(nn.Module):
    def __init__(self, c1, c2, n=1, shortcut=False, g=1, e=0.5):
        super().__init__()
        self.c = int(c2 * e)
        self.cv1 = Conv(c1, 2 * self.c, 1, 1)
        self.cv2 = Conv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, self.c, shortcut, g, k=((3, 3), (3, 3)), e=1.0) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))

    def forward_split(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1, c2, k=5):
        super().__init__()
        c_ = c1 // 2
        self.cv1 = Conv(c1, c_, 1, 1)
        self.cv2 = Conv(c_ * 4, c2, 1, 1)
        self.m = nn.MaxPool2d(kernel_size=k, stride=1, padding=k // 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class DFL(nn.Module):
    def __init__(self, c1=16):
        super().__init__()
        self.conv = nn.Conv2d(c1, 1, 1, bias=False).requires_grad_(False)
        x = torch.arange(c1, dtype=torch.float)
        self.conv.weight.data[:] = nn.Parameter(x.view(1, c1, 1, 1))
        self.c1 = c1

    def forward(self, x):
        b, _, a = x.shape
        return self.conv(x.view(b, 4, self.c1, a).transpose(2, 1).softmax(1)).view(b, 4, a)


def make_anchors(feats, strides, grid_cell_offset=0.5):
    anchor_points, stride_tensor = [], []
    dtype, device = feats[0].dtype, feats[0].device
    for i, stride in enumerate(strides):
        _, _, h, w = feats[i].shape
        sx = torch.arange(end=w, device=device, dtype=dtype) + grid_cell_offset
        sy = torch.arange(end=h, device=device, dtype=dtype) + grid_cell_offset
        sy, sx = torch.meshgrid(sy, sx, indexing="ij")
        anchor_points.append(torch.stack((sx, sy), -1).view(-1, 2))
        stride_tensor.append(torch.full((h * w, 1), stride, dtype=dtype, device=device))
    return torch.cat(anchor_points), torch.cat(stride_tensor)


def dist2bbox(distance, anchor_points, xywh=True, dim=-1):
    lt, rb = distance.chunk(2, dim)
    x1y1 = anchor_points - lt
    x2y2 = anchor_points + rb
    if xywh:
        c_xy = (x1y1 + x2y2) / 2
        wh = x2y2 - x1y1
        return torch.cat((c_xy, wh), dim)
    return torch.cat((x1y1, x2y2), dim)


def bbox2dist(anchor_points, bbox, reg_max):
    x1y1, x2y2 = bbox.chunk(2, -1)
    return torch.cat((anchor_points - x1y1, x2y2 - anchor_points), -1).clamp_(0, reg_max - 0.01)


def bbox_iou(box1, box2, xywh=True, GIoU=False, DIoU=False, CIoU=False, eps=1e-7):
    if xywh:
        (x1, y1, w1, h1), (x2, y2, w2, h2) = box1.chunk(4, -1), box2.chunk(4, -1)
        w1_, h1_, w2_, h2_ = w1 / 2, h1 / 2, w2 / 2, h2 / 2
        b1_x1, b1_x2, b1_y1, b1_y2 = x1 - w1_, x1 + w1_, y1 - h1_, y1 + h1_
        b2_x1, b2_x2, b2_y1, b2_y2 = x2 - w2_, x2 + w2_, y2 - h2_, y2 + h2_
    else:
        b1_x1, b1_y1, b1_x2, b1_y2 = box1.chunk(4, -1)
        b2_x1, b2_y1, b2_x2, b2_y2 = box2.chunk(4, -1)
        w1, h1 = b1_x2 - b1_x1, b1_y2 - b1_y1 + eps
        w2, h2 = b2_x2 - b2_x1, b2_y2 - b2_y1 + eps
    inter = (b1_x2.minimum(b2_x2) - b1_x1.maximum(b2_x1)).clamp_(0) * \
            (b1_y2.minimum(b2_y2) - b1_y1.maximum(b2_y1)).clamp_(0)
    union = w1 * h1 + w2 * h2 - inter + eps
    iou = inter / union
    if CIoU or DIoU or GIoU:
        cw = b1_x2.maximum(b2_x2) - b1_x1.minimum(b2_x1)
        ch = b1_y2.maximum(b2_y2) - b1_y1.minimum(b2_y1)
        if CIoU or DIoU:
            c2 = cw.pow(2) + ch.pow(2) + eps
            rho2 = ((b2_x1 + b2_x2 - b1_x1 - b1_x2).pow(2) + (b2_y1 + b2_y2 - b1_y1 - b1_y2).pow(2)) / 4
            if CIoU:
                v = (4 / math.pi ** 2) * ((w2 / h2).atan() - (w1 / h1).atan()).pow(2)
                with torch.no_grad():
                    alpha = v / (v - iou + (1 + eps))
                return iou - (rho2 / c2 + v * alpha)
            return iou - rho2 / c2
        c_area = cw * ch + eps
        return iou - (c_area - union) / c_area
    return iou


class TaskAlignedAssigner(nn.Module):
    def __init__(self, topk=3, num_classes=2, alpha=1.0, beta=6.0, eps=1e-9):
        super().__init__()
        self.topk, self.num_classes, self.bg_idx, self.alpha, self.beta, self.eps = topk, num_classes, num_classes, alpha, beta, eps

    @torch.no_grad()
    def forward(self, pd_scores, pd_bboxes, anc_points, gt_labels, gt_bboxes, mask_gt):
        self.bs = pd_scores.shape[0]
        self.n_max_boxes = gt_bboxes.shape[1]
        mask_pos, align_metric, overlaps = self.get_pos_mask(pd_scores, pd_bboxes, gt_labels, gt_bboxes, anc_points, mask_gt)
        target_gt_idx, fg_mask, mask_pos = self.select_highest_overlaps(mask_pos, overlaps, self.n_max_boxes)
        target_labels, target_bboxes, target_scores = self.get_targets(gt_labels, gt_bboxes, target_gt_idx, fg_mask)
        align_metric *= mask_pos
        pos_align_metrics = align_metric.amax(dim=-1, keepdim=True)
        pos_overlaps = (overlaps * mask_pos).amax(dim=-1, keepdim=True)
        norm_align_metric = (align_metric * pos_overlaps / (pos_align_metrics + self.eps)).amax(-2).unsqueeze(-1)
        target_scores = target_scores * norm_align_metric
        return target_labels, target_bboxes, target_scores, fg_mask.bool(), target_gt_idx

    def get_pos_mask(self, pd_scores, pd_bboxes, gt_labels, gt_bboxes, anc_points, mask_gt):
        mask_in_gts = self.select_candidates_in_gts(anc_points, gt_bboxes)
        align_metric, overlaps = self.get_box_metrics(pd_scores, pd_bboxes, gt_labels, gt_bboxes, mask_in_gts * mask_gt)
        mask_topk = self.select_topk_candidates(align_metric, topk_mask=mask_gt.expand(-1, -1, self.topk).bool())
        mask_pos = mask_topk * mask_in_gts * mask_gt
        return mask_pos, align_metric, overlaps

    def get_box_metrics(self, pd_scores, pd_bboxes, gt_labels, gt_bboxes, mask_gt):
        na = pd_bboxes.shape[-2]
        mask_gt = mask_gt.bool()
        overlaps = torch.zeros([self.bs, self.n_max_boxes, na], dtype=pd_bboxes.dtype, device=pd_bboxes.device)
        bbox_scores = torch.zeros([self.bs, self.n_max_boxes, na], dtype=pd_scores.dtype, device=pd_scores.device)
        ind = torch.zeros([2, self.bs, self.n_max_boxes], dtype=torch.long)
        ind[0] = torch.arange(end=self.bs).view(-1, 1).expand(-1, self.n_max_boxes)
        ind[1] = gt_labels.squeeze(-1)
        bbox_scores[mask_gt] = pd_scores[ind[0], :, ind[1]][mask_gt]
        pd_boxes = pd_bboxes.unsqueeze(1).expand(-1, self.n_max_boxes, -1, -1)[mask_gt]
        gt_boxes = gt_bboxes.unsqueeze(2).expand(-1, -1, na, -1)[mask_gt]
        overlaps[mask_gt] = bbox_iou(gt_boxes, pd_boxes, xywh=False, CIoU=True).squeeze(-1).clamp_(0)
        align_metric = bbox_scores.pow(self.alpha) * overlaps.pow(self.beta)
        return align_metric, overlaps

    def select_topk_candidates(self, metrics, largest=True, topk_mask=None):
        topk_metrics, topk_idxs = torch.topk(metrics, self.topk, dim=-1, largest=largest)
        if topk_mask is None:
            topk_mask = (topk_metrics.max(-1, keepdim=True)[0] > self.eps).expand_as(topk_idxs)
        topk_idxs.masked_fill_(~topk_mask, 0)
        count_tensor = torch.zeros(metrics.shape, dtype=torch.int8, device=topk_idxs.device)
        ones = torch.ones_like(topk_idxs[:, :, :1], dtype=torch.int8, device=topk_idxs.device)
        for k in range(self.topk):
            count_tensor.scatter_add_(-1, topk_idxs[:, :, k:k + 1], ones)
        count_tensor.masked_fill_(count_tensor > 1, 0)
        return count_tensor.to(metrics.dtype)

    def get_targets(self, gt_labels, gt_bboxes, target_gt_idx, fg_mask):
        batch_ind = torch.arange(end=self.bs, dtype=torch.int64, device=gt_labels.device)[..., None]
        target_gt_idx = target_gt_idx + batch_ind * self.n_max_boxes
        target_labels = gt_labels.long().flatten()[target_gt_idx]
        target_bboxes = gt_bboxes.view(-1, gt_bboxes.shape[-1])[target_gt_idx]
        target_labels.clamp_(0)
        target_scores = torch.zeros((target_labels.shape[0], target_labels.shape[1], self.num_classes),
                                    dtype=torch.int64, device=target_labels.device)
        target_scores.scatter_(2, target_labels.unsqueeze(-1), 1)
        fg_scores_mask = fg_mask[:, :, None].repeat(1, 1, self.num_classes)
        target_scores = torch.where(fg_scores_mask > 0, target_scores, 0)
        return target_labels, target_bboxes, target_scores

    @staticmethod
    def select_candidates_in_gts(xy_centers, gt_bboxes, eps=1e-9):
        n_anchors = xy_centers.shape[0]
        bs, n_boxes, _ = gt_bboxes.shape
        lt, rb = gt_bboxes.view(-1, 1, 4).chunk(2, 2)
        bbox_deltas = torch.cat((xy_centers[None] - lt, rb - xy_centers[None]), dim=2).view(bs, n_boxes, n_anchors, -1)
        return bbox_deltas.amin(3).gt_(eps)

    @staticmethod
    def select_highest_overlaps(mask_pos, overlaps, n_max_boxes):
        fg_mask = mask_pos.sum(-2)
        if fg_mask.max() > 1:
            mask_multi_gts = (fg_mask.unsqueeze(1) > 1).expand(-1, n_max_boxes, -1)
            max_overlaps_idx = overlaps.argmax(1)
            is_max_overlaps = torch.zeros(mask_pos.shape, dtype=mask_pos.dtype, device=mask_pos.device)
            is_max_overlaps.scatter_(1, max_overlaps_idx.unsqueeze(1), 1)
            mask_pos = torch.where(mask_multi_gts, is_max_overlaps, mask_pos).float()
            fg_mask = mask_pos.sum(-2)
        target_gt_idx = mask_pos.argmax(-2)
        return target_gt_idx, fg_mask, mask_pos


def fuse_conv_and_bn(conv, bn):
    fusedconv = nn.Conv2d(conv.in_channels, conv.out_channels, kernel_size=conv.kernel_size, stride=conv.stride,
                          padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True
                          ).requires_grad_(False).to(conv.weight.device)
    w_conv = conv.weight.view(conv.out_channels, -1)
    w_bn = torch.diag(bn.weight.div(torch.sqrt(bn.eps + bn.running_var)))
    fusedconv.weight.copy_(torch.mm(w_bn, w_conv).view(fusedconv.weight.shape))
    b_conv = torch.zeros(conv.weight.shape[0], device=conv.weight.device) if conv.bias is None else conv.bias
    b_bn = bn.bias - bn.weight.mul(bn.running_mean).div(torch.sqrt(bn.running_var + bn.eps))
    fusedconv.bias.copy_(torch.mm(w_bn, b_conv.reshape(-1, 1)).reshape(-1) + b_bn)
    return fusedconv


class TinyYOLO(nn.Module):
    def __init__(self, nc=2, reg_max=4):
        super().__init__()
        self.nc, self.reg_max, self.no = nc, reg_max, nc + reg_max * 4
        self.stride = torch.tensor([4.0, 8.0])
        self.b0 = Conv(3, 8, 3, 2)
        self.b1 = C2f(8, 8, 1, True)
        self.b2 = Conv(8, 8, 3, 2)
        self.b3 = C2f(8, 8, 1, True)
        self.b4 = Conv(8, 8, 3, 2)
        self.b5 = SPPF(8, 8, 3)
        self.cv2 = nn.ModuleList(nn.Sequential(Conv(8, 8, 3), nn.Conv2d(8, 4 * reg_max, 1)) for _ in range(2))
        self.cv3 = nn.ModuleList(nn.Sequential(Conv(8, 8, 3), nn.Conv2d(8, nc, 1)) for _ in range(2))
        self.dfl = DFL(reg_max)

    def forward(self, x):
        p3 = self.b3(self.b2(self.b1(self.b0(x))))
        p4 = self.b5(self.b4(p3))
        return [torch.cat((self.cv2[i](f), self.cv3[i](f)), 1) for i, f in enumerate((p3, p4))]

    def fuse(self):
        for m in self.modules():
            if isinstance(m, Conv) and hasattr(m, "bn"):
                m.conv = fuse_conv_and_bn(m.conv, m.bn)
                delattr(m, "bn")
                m.forward = m.forward_fuse
        return self


print('autopad', autopad(3), autopad(5, None, 2), autopad([3, 1]))
model = TinyYOLO()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        if p.dim() > 1 and p.requires_grad:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.57 + i).view_as(p) * (2.0 / p[0].numel()) ** 0.5)
print('dfl weight', model.dfl.conv.weight.flatten().tolist(), model.dfl.conv.weight.requires_grad)
print('trainable', sum(p.numel() for p in model.parameters() if p.requires_grad), 'frozen', sum(p.numel() for p in model.parameters() if not p.requires_grad))
img = torch.sin(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.031).view(2, 3, 16, 16) * 0.5 + 0.5
c2f = model.b1
t = torch.cos(torch.arange(8 * 16, dtype=torch.float32)).view(1, 8, 4, 4)
print('chunk == split', torch.allclose(c2f(t), c2f.forward_split(t)))

gt_labels = torch.tensor([[[0], [1]], [[1], [0]]])
gt_bboxes = torch.tensor([[[1.0, 1.0, 9.0, 7.0], [6.0, 8.0, 15.0, 15.0]], [[2.0, 3.0, 12.0, 13.0], [0.0, 0.0, 0.0, 0.0]]])
mask_gt = gt_bboxes.sum(2, keepdim=True).gt_(0.0)
assigner = TaskAlignedAssigner(topk=3, num_classes=2)
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01, momentum=0.937, nesterov=True)
for step in range(3):
    feats = model(img)
    pred_distri, pred_scores = torch.cat([xi.view(2, model.no, -1) for xi in feats], 2).split((model.reg_max * 4, model.nc), 1)
    pred_scores = pred_scores.permute(0, 2, 1).contiguous()
    pred_distri = pred_distri.permute(0, 2, 1).contiguous()
    anchor_points, stride_tensor = make_anchors(feats, model.stride, 0.5)
    b, a, c = pred_distri.shape
    proj = torch.arange(model.reg_max, dtype=torch.float)
    pred_bboxes = dist2bbox(pred_distri.view(b, a, 4, c // 4).softmax(3).matmul(proj.type(pred_distri.dtype)), anchor_points, xywh=False)
    _, target_bboxes, target_scores, fg_mask, _ = assigner(
        pred_scores.detach().sigmoid(), (pred_bboxes.detach() * stride_tensor).type(gt_bboxes.dtype),
        anchor_points * stride_tensor, gt_labels, gt_bboxes, mask_gt)
    target_scores_sum = max(target_scores.sum(), 1)
    loss_cls = F.binary_cross_entropy_with_logits(pred_scores, target_scores.to(pred_scores.dtype), reduction="none").sum() / target_scores_sum
    target_bboxes /= stride_tensor
    weight = target_scores.sum(-1)[fg_mask].unsqueeze(-1)
    iou = bbox_iou(pred_bboxes[fg_mask], target_bboxes[fg_mask], xywh=False, CIoU=True)
    loss_iou = ((1.0 - iou) * weight).sum() / target_scores_sum
    target_ltrb = bbox2dist(anchor_points, target_bboxes, model.reg_max)
    tl = target_ltrb[fg_mask].long()
    tr = tl + 1
    wl = tr - target_ltrb[fg_mask]
    wr = 1 - wl
    pd = pred_distri[fg_mask].view(-1, model.reg_max)
    loss_dfl = ((F.cross_entropy(pd, tl.view(-1), reduction="none").view(tl.shape) * wl +
                 F.cross_entropy(pd, tr.clamp(max=model.reg_max - 1).view(-1), reduction="none").view(tl.shape) * wr).mean(-1, keepdim=True) * weight).sum() / target_scores_sum
    loss = 7.5 * loss_iou + 0.5 * loss_cls + 1.5 * loss_dfl
    opt.zero_grad()
    (loss * 2).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0)
    opt.step()
    print('step %d loss %.5f iou %.5f cls %.5f dfl %.5f fg %d' % (step, loss.item(), loss_iou.item(), loss_cls.item(),
                                                                  loss_dfl.item(), int(fg_mask.sum())))
print('anchors', tuple(anchor_points.shape), anchor_points[:3].tolist(), stride_tensor[-2:].flatten().tolist())
print('fg anchors', fg_mask.nonzero().tolist())
print('ciou', [round(v, 5) for v in bbox_iou(torch.tensor([[0., 0., 4., 2.], [1., 1., 3., 5.]]), torch.tensor([[1., 0., 5., 3.], [1., 1., 3., 5.]]), xywh=False, CIoU=True).flatten().tolist()],
      'giou', [round(v, 5) for v in bbox_iou(torch.tensor([[2., 2., 2., 2.]]), torch.tensor([[3., 3., 2., 4.]]), GIoU=True).flatten().tolist()])
model.eval()
with torch.no_grad():
    ref = model(img)
    model.fuse()
    fused = model(img)
print('fused', all(torch.allclose(r, f, atol=1e-4) for r, f in zip(ref, fused)), hasattr(model.b0, 'bn'), model.b0.conv.bias is not None)
with torch.no_grad():
    x = torch.cat([xi.view(2, model.no, -1) for xi in fused], 2)
    box, cls = x.split((model.reg_max * 4, model.nc), 1)
    dbox = dist2bbox(model.dfl(box), anchor_points.transpose(0, 1).unsqueeze(0), xywh=True, dim=1) * stride_tensor.transpose(0, 1)
    y = torch.cat((dbox, cls.sigmoid()), 1)
print('inference out', tuple(y.shape), [round(v, 3) for v in y[0, :, 0].tolist()])
