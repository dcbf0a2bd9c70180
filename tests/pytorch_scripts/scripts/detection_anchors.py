"""Two-stage detector plumbing as torchvision's detection/_utils.py and rpn.py write it in plain
torch: AnchorGenerator's generate_anchors (scales x aspect ratios, torch.round) and grid_anchors
(shifts from torch.meshgrid(indexing='ij'), view(-1, 1, 4) + view(1, -1, 4)), BoxCoder.encode_single /
decode_single with weights and bbox_xform_clip = math.log(1000/16), box_iou with broadcasting max/min
and clamp(min=0), the Matcher with BELOW_LOW_THRESHOLD / BETWEEN_THRESHOLDS and
allow_low_quality_matches via torch.where(quality == highest[:, None]), BalancedPositiveNegativeSampler
with torch.randperm, clip_boxes_to_image through clamp on x/y columns, remove_small_boxes with
torch.where(keep)[0], and smooth_l1 box loss on sampled positives; YOLO-style grid decoding at the end."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def generate_anchors(scales, aspect_ratios, dtype=torch.float32):
    scales = torch.as_tensor(scales, dtype=dtype)
    aspect_ratios = torch.as_tensor(aspect_ratios, dtype=dtype)
    h_ratios = torch.sqrt(aspect_ratios)
    w_ratios = 1 / h_ratios
    ws = (w_ratios[:, None] * scales[None, :]).view(-1)
    hs = (h_ratios[:, None] * scales[None, :]).view(-1)
    base_anchors = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    return base_anchors.round()


def grid_anchors(base_anchors, grid_size, stride):
    grid_height, grid_width = grid_size
    shifts_x = torch.arange(0, grid_width, dtype=torch.int32) * stride[1]
    shifts_y = torch.arange(0, grid_height, dtype=torch.int32) * stride[0]
    shift_y, shift_x = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
    shift_x = shift_x.reshape(-1)
    shift_y = shift_y.reshape(-1)
    shifts = torch.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
    return (shifts.view(-1, 1, 4) + base_anchors.view(1, -1, 4)).reshape(-1, 4)


base = generate_anchors((16, 32), (0.5, 1.0, 2.0))
print("base anchors", base.tolist())
anchors = grid_anchors(base, (3, 4), (8, 8))
print("anchors", anchors.shape, anchors.dtype, anchors[7].tolist())


class BoxCoder:
    def __init__(self, weights, bbox_xform_clip=math.log(1000.0 / 16)):
        self.weights = weights
        self.bbox_xform_clip = bbox_xform_clip

    def encode_single(self, reference_boxes, proposals):
        wx, wy, ww, wh = self.weights
        ex_widths = proposals[:, 2] - proposals[:, 0]
        ex_heights = proposals[:, 3] - proposals[:, 1]
        ex_ctr_x = proposals[:, 0] + 0.5 * ex_widths
        ex_ctr_y = proposals[:, 1] + 0.5 * ex_heights
        gt_widths = reference_boxes[:, 2] - reference_boxes[:, 0]
        gt_heights = reference_boxes[:, 3] - reference_boxes[:, 1]
        gt_ctr_x = reference_boxes[:, 0] + 0.5 * gt_widths
        gt_ctr_y = reference_boxes[:, 1] + 0.5 * gt_heights
        targets_dx = wx * (gt_ctr_x - ex_ctr_x) / ex_widths
        targets_dy = wy * (gt_ctr_y - ex_ctr_y) / ex_heights
        targets_dw = ww * torch.log(gt_widths / ex_widths)
        targets_dh = wh * torch.log(gt_heights / ex_heights)
        return torch.stack((targets_dx, targets_dy, targets_dw, targets_dh), dim=1)

    def decode_single(self, rel_codes, boxes):
        boxes = boxes.to(rel_codes.dtype)
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        ctr_x = boxes[:, 0] + 0.5 * widths
        ctr_y = boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = rel_codes[:, 0::4] / wx
        dy = rel_codes[:, 1::4] / wy
        dw = rel_codes[:, 2::4] / ww
        dh = rel_codes[:, 3::4] / wh
        dw = torch.clamp(dw, max=self.bbox_xform_clip)
        dh = torch.clamp(dh, max=self.bbox_xform_clip)
        pred_ctr_x = dx * widths[:, None] + ctr_x[:, None]
        pred_ctr_y = dy * heights[:, None] + ctr_y[:, None]
        pred_w = torch.exp(dw) * widths[:, None]
        pred_h = torch.exp(dh) * heights[:, None]
        c_to_c_h = torch.tensor(0.5, dtype=pred_ctr_y.dtype, device=pred_h.device) * pred_h
        c_to_c_w = torch.tensor(0.5, dtype=pred_ctr_x.dtype, device=pred_w.device) * pred_w
        pred_boxes1 = pred_ctr_x - c_to_c_w
        pred_boxes2 = pred_ctr_y - c_to_c_h
        pred_boxes3 = pred_ctr_x + c_to_c_w
        pred_boxes4 = pred_ctr_y + c_to_c_h
        return torch.stack((pred_boxes1, pred_boxes2, pred_boxes3, pred_boxes4), dim=2).flatten(1)


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(boxes1, boxes2):
    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter / (area1[:, None] + area2 - inter)


class Matcher:
    BELOW_LOW_THRESHOLD = -1
    BETWEEN_THRESHOLDS = -2

    def __init__(self, high_threshold, low_threshold, allow_low_quality_matches=False):
        self.high_threshold, self.low_threshold = high_threshold, low_threshold
        self.allow_low_quality_matches = allow_low_quality_matches

    def __call__(self, match_quality_matrix):
        matched_vals, matches = match_quality_matrix.max(dim=0)
        all_matches = matches.clone() if self.allow_low_quality_matches else None
        below_low_threshold = matched_vals < self.low_threshold
        between_thresholds = (matched_vals >= self.low_threshold) & (matched_vals < self.high_threshold)
        matches[below_low_threshold] = self.BELOW_LOW_THRESHOLD
        matches[between_thresholds] = self.BETWEEN_THRESHOLDS
        if self.allow_low_quality_matches:
            highest_quality_foreach_gt, _ = match_quality_matrix.max(dim=1)
            gt_pred_pairs_of_highest_quality = torch.where(match_quality_matrix == highest_quality_foreach_gt[:, None])
            pred_inds_to_update = gt_pred_pairs_of_highest_quality[1]
            matches[pred_inds_to_update] = all_matches[pred_inds_to_update]
        return matches


gt = torch.tensor([[2.0, 3.0, 14.0, 12.0], [17.0, 1.0, 30.0, 20.0]])
iou = box_iou(gt, anchors)
print("iou", iou.shape, round(iou.max().item(), 4), iou.argmax(1).tolist())
m = Matcher(0.5, 0.3, allow_low_quality_matches=True)(iou)
m_strict = Matcher(0.5, 0.3)(iou)
print("matches", (m >= 0).sum().item(), (m == -1).sum().item(), (m == -2).sum().item(), (m_strict >= 0).sum().item())
coder = BoxCoder((1.0, 1.0, 1.0, 1.0))
matched_gt = gt[m.clamp(min=0)]
targets = coder.encode_single(matched_gt, anchors)
decoded = coder.decode_single(targets, anchors)
pos = torch.where(m >= 0)[0]
print("round trip", torch.allclose(decoded[pos], matched_gt[pos], atol=1e-4), targets.shape, pos.tolist())
print("clip", coder.decode_single(torch.tensor([[0.0, 0.0, 10.0, -1.0]]), torch.tensor([[0.0, 0.0, 4.0, 4.0]])).round(decimals=2).tolist())
labels = (m >= 0).to(torch.float32)
labels[m == -2] = -1.0
positive = torch.where(labels >= 1)[0]
negative = torch.where(labels == 0)[0]
num_pos = min(positive.numel(), 4)
num_neg = min(negative.numel(), 8 - num_pos)
perm1 = torch.randperm(positive.numel())[:num_pos]
perm2 = torch.randperm(negative.numel())[:num_neg]
print("sampled", num_pos, num_neg, perm1.shape, perm2.shape)
pred_deltas = torch.zeros_like(targets, requires_grad=True)
box_loss = F.smooth_l1_loss(pred_deltas[pos], targets[pos], beta=1 / 9, reduction="sum") / max(1, pos.numel())
box_loss.backward()
print("box loss", round(box_loss.item(), 4), pred_deltas.grad.abs().sum(1).nonzero().flatten().tolist())


def clip_boxes_to_image(boxes, size):
    dim = boxes.dim()
    boxes_x = boxes[..., 0::2]
    boxes_y = boxes[..., 1::2]
    height, width = size
    boxes_x = boxes_x.clamp(min=0, max=width)
    boxes_y = boxes_y.clamp(min=0, max=height)
    clipped_boxes = torch.stack((boxes_x, boxes_y), dim=dim)
    return clipped_boxes.reshape(boxes.shape)


def remove_small_boxes(boxes, min_size):
    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    keep = (ws >= min_size) & (hs >= min_size)
    return torch.where(keep)[0]


clipped = clip_boxes_to_image(anchors, (20, 28))
print("clipped", clipped[:3].tolist(), remove_small_boxes(clipped, 12).numel())
na, ny, nx = 3, 2, 2
yv, xv = torch.meshgrid([torch.arange(ny), torch.arange(nx)], indexing="ij")
grid = torch.stack((xv, yv), 2).view((1, 1, ny, nx, 2)).float()
anchor_grid = torch.tensor([[10., 13.], [16., 30.], [33., 23.]]).view(1, na, 1, 1, 2)
p = torch.randn(1, na * 7, ny, nx).view(1, na, 7, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
y = p.sigmoid()
xy = (y[..., 0:2] * 2. - 0.5 + grid) * 8
wh = (y[..., 2:4] * 2) ** 2 * anchor_grid
print("yolo", xy.shape, wh.shape, torch.cat((xy, wh, y[..., 4:]), -1).view(1, -1, 7).shape)
