# YOLOv1 from scratch (aladdinpersson/Machine-Learning-Collection, ObjectDetection/YOLO): IoU for
# midpoint/corner boxes, the YOLO loss (torch.cat of ious, torch.max over boxes, sign*sqrt width/height,
# flatten(end_dim=-2)), non-max suppression and mean average precision with cumsum/trapz.
from collections import Counter

import torch
import torch.nn as nn

torch.manual_seed(0)


def intersection_over_union(boxes_preds, boxes_labels, box_format="midpoint"):
    if box_format == "midpoint":
        box1_x1 = boxes_preds[..., 0:1] - boxes_preds[..., 2:3] / 2
        box1_y1 = boxes_preds[..., 1:2] - boxes_preds[..., 3:4] / 2
        box1_x2 = boxes_preds[..., 0:1] + boxes_preds[..., 2:3] / 2
        box1_y2 = boxes_preds[..., 1:2] + boxes_preds[..., 3:4] / 2
        box2_x1 = boxes_labels[..., 0:1] - boxes_labels[..., 2:3] / 2
        box2_y1 = boxes_labels[..., 1:2] - boxes_labels[..., 3:4] / 2
        box2_x2 = boxes_labels[..., 0:1] + boxes_labels[..., 2:3] / 2
        box2_y2 = boxes_labels[..., 1:2] + boxes_labels[..., 3:4] / 2
    if box_format == "corners":
        box1_x1 = boxes_preds[..., 0:1]
        box1_y1 = boxes_preds[..., 1:2]
        box1_x2 = boxes_preds[..., 2:3]
        box1_y2 = boxes_preds[..., 3:4]
        box2_x1 = boxes_labels[..., 0:1]
        box2_y1 = boxes_labels[..., 1:2]
        box2_x2 = boxes_labels[..., 2:3]
        box2_y2 = boxes_labels[..., 3:4]
    x1 = torch.max(box1_x1, box2_x1)
    y1 = torch.max(box1_y1, box2_y1)
    x2 = torch.min(box1_x2, box2_x2)
    y2 = torch.min(box1_y2, box2_y2)
    intersection = (x2 - x1).clamp(0) * (y2 - y1).clamp(0)
    box1_area = abs((box1_x2 - box1_x1) * (box1_y2 - box1_y1))
    box2_area = abs((box2_x2 - box2_x1) * (box2_y2 - box2_y1))
    return intersection / (box1_area + box2_area - intersection + 1e-6)


def non_max_suppression(bboxes, iou_threshold, threshold, box_format="corners"):
    assert type(bboxes) == list
    bboxes = [box for box in bboxes if box[1] > threshold]
    bboxes = sorted(bboxes, key=lambda x: x[1], reverse=True)
    bboxes_after_nms = []
    while bboxes:
        chosen_box = bboxes.pop(0)
        bboxes = [
            box for box in bboxes
            if box[0] != chosen_box[0]
            or intersection_over_union(torch.tensor(chosen_box[2:]), torch.tensor(box[2:]), box_format=box_format) < iou_threshold
        ]
        bboxes_after_nms.append(chosen_box)
    return bboxes_after_nms


def mean_average_precision(pred_boxes, true_boxes, iou_threshold=0.5, box_format="midpoint", num_classes=3):
    average_precisions = []
    epsilon = 1e-6
    for c in range(num_classes):
        detections = [d for d in pred_boxes if d[1] == c]
        ground_truths = [t for t in true_boxes if t[1] == c]
        amount_bboxes = Counter([gt[0] for gt in ground_truths])
        for key, val in amount_bboxes.items():
            amount_bboxes[key] = torch.zeros(val)
        detections.sort(key=lambda x: x[2], reverse=True)
        TP = torch.zeros((len(detections)))
        FP = torch.zeros((len(detections)))
        total_true_bboxes = len(ground_truths)
        if total_true_bboxes == 0:
            continue
        for detection_idx, detection in enumerate(detections):
            ground_truth_img = [bbox for bbox in ground_truths if bbox[0] == detection[0]]
            best_iou = 0
            best_gt_idx = -1
            for idx, gt in enumerate(ground_truth_img):
                iou = intersection_over_union(torch.tensor(detection[3:]), torch.tensor(gt[3:]), box_format=box_format)
                if iou > best_iou:
                    best_iou = iou
                    best_gt_idx = idx
            if best_iou > iou_threshold:
                if amount_bboxes[detection[0]][best_gt_idx] == 0:
                    TP[detection_idx] = 1
                    amount_bboxes[detection[0]][best_gt_idx] = 1
                else:
                    FP[detection_idx] = 1
            else:
                FP[detection_idx] = 1
        TP_cumsum = torch.cumsum(TP, dim=0)
        FP_cumsum = torch.cumsum(FP, dim=0)
        recalls = TP_cumsum / (total_true_bboxes + epsilon)
        precisions = torch.divide(TP_cumsum, (TP_cumsum + FP_cumsum + epsilon))
        precisions = torch.cat((torch.tensor([1]), precisions))
        recalls = torch.cat((torch.tensor([0]), recalls))
        average_precisions.append(torch.trapz(precisions, recalls))
    return sum(average_precisions) / len(average_precisions)


class YoloLoss(nn.Module):
    def __init__(self, S=3, B=2, C=3):
        super(YoloLoss, self).__init__()
        self.mse = nn.MSELoss(reduction="sum")
        self.S = S
        self.B = B
        self.C = C
        self.lambda_noobj = 0.5
        self.lambda_coord = 5

    def forward(self, predictions, target):
        C = self.C
        predictions = predictions.reshape(-1, self.S, self.S, self.C + self.B * 5)
        iou_b1 = intersection_over_union(predictions[..., C + 1:C + 5], target[..., C + 1:C + 5])
        iou_b2 = intersection_over_union(predictions[..., C + 6:C + 10], target[..., C + 1:C + 5])
        ious = torch.cat([iou_b1.unsqueeze(0), iou_b2.unsqueeze(0)], dim=0)
        iou_maxes, bestbox = torch.max(ious, dim=0)
        exists_box = target[..., C].unsqueeze(3)
        box_predictions = exists_box * (
            bestbox * predictions[..., C + 6:C + 10] + (1 - bestbox) * predictions[..., C + 1:C + 5])
        box_targets = exists_box * target[..., C + 1:C + 5]
        box_predictions[..., 2:4] = torch.sign(box_predictions[..., 2:4]) * torch.sqrt(
            torch.abs(box_predictions[..., 2:4] + 1e-6))
        box_targets[..., 2:4] = torch.sqrt(box_targets[..., 2:4])
        box_loss = self.mse(torch.flatten(box_predictions, end_dim=-2), torch.flatten(box_targets, end_dim=-2))
        pred_box = bestbox * predictions[..., C + 5:C + 6] + (1 - bestbox) * predictions[..., C:C + 1]
        object_loss = self.mse(torch.flatten(exists_box * pred_box), torch.flatten(exists_box * target[..., C:C + 1]))
        no_object_loss = self.mse(
            torch.flatten((1 - exists_box) * predictions[..., C:C + 1], start_dim=1),
            torch.flatten((1 - exists_box) * target[..., C:C + 1], start_dim=1))
        no_object_loss += self.mse(
            torch.flatten((1 - exists_box) * predictions[..., C + 5:C + 6], start_dim=1),
            torch.flatten((1 - exists_box) * target[..., C:C + 1], start_dim=1))
        class_loss = self.mse(torch.flatten(exists_box * predictions[..., :C], end_dim=-2),
                              torch.flatten(exists_box * target[..., :C], end_dim=-2))
        loss = (self.lambda_coord * box_loss + object_loss + self.lambda_noobj * no_object_loss + class_loss)
        return loss, bestbox


def cellboxes_to_boxes(out, S=3, C=3):
    # convert_cellboxes: cell-relative boxes to image-relative, best box per cell
    predictions = out.reshape(out.shape[0], S, S, C + 10)
    bboxes1 = predictions[..., C + 1:C + 5]
    bboxes2 = predictions[..., C + 6:C + 10]
    scores = torch.cat((predictions[..., C].unsqueeze(0), predictions[..., C + 5].unsqueeze(0)), dim=0)
    best_box = scores.argmax(0).unsqueeze(-1)
    best_boxes = bboxes1 * (1 - best_box) + best_box * bboxes2
    cell_indices = torch.arange(S).repeat(out.shape[0], S, 1).unsqueeze(-1)
    x = 1 / S * (best_boxes[..., :1] + cell_indices)
    y = 1 / S * (best_boxes[..., 1:2] + cell_indices.permute(0, 2, 1, 3))
    w_y = 1 / S * best_boxes[..., 2:4]
    converted_bboxes = torch.cat((x, y, w_y), dim=-1)
    predicted_class = predictions[..., :C].argmax(-1).unsqueeze(-1)
    best_confidence = torch.max(predictions[..., C], predictions[..., C + 5]).unsqueeze(-1)
    converted = torch.cat((predicted_class, best_confidence, converted_bboxes), dim=-1)
    converted = converted.reshape(out.shape[0], S * S, -1)
    converted[..., 0] = converted[..., 0].long()
    return [[[x.item() for x in converted[ex_idx, bbox_idx, :]] for bbox_idx in range(S * S)]
            for ex_idx in range(out.shape[0])]


print('iou midpoint', intersection_over_union(torch.tensor([[0.5, 0.5, 0.4, 0.4], [0.2, 0.2, 0.1, 0.3]]),
                                              torch.tensor([[0.6, 0.5, 0.4, 0.2], [0.8, 0.8, 0.1, 0.1]])).flatten().tolist())
print('iou corners', round(intersection_over_union(torch.tensor([0., 0., 2., 2.]), torch.tensor([1., 1., 3., 3.]), "corners").item(), 5))
boxes = [[0, 0.9, 0.1, 0.1, 0.4, 0.4], [0, 0.8, 0.12, 0.1, 0.42, 0.4], [1, 0.7, 0.1, 0.1, 0.4, 0.4],
         [0, 0.6, 0.6, 0.6, 0.9, 0.9], [0, 0.1, 0.6, 0.6, 0.9, 0.9]]
print('nms', non_max_suppression(boxes, iou_threshold=0.5, threshold=0.2))
preds = [[0, 0, 0.9, 0.55, 0.2, 0.3, 0.2], [0, 0, 0.8, 0.35, 0.6, 0.5, 0.3], [1, 0, 0.7, 0.8, 0.7, 0.2, 0.2],
         [1, 1, 0.6, 0.5, 0.5, 0.2, 0.2], [1, 2, 0.5, 0.3, 0.3, 0.1, 0.1]]
truths = [[0, 0, 0.9, 0.55, 0.2, 0.3, 0.2], [0, 0, 0.9, 0.35, 0.6, 0.3, 0.3], [1, 0, 0.9, 0.8, 0.7, 0.2, 0.2],
          [1, 2, 0.9, 0.31, 0.3, 0.1, 0.1]]
print('mAP', round(float(mean_average_precision(preds, truths)), 5))

S, B, C = 3, 2, 3
model = nn.Sequential(nn.Flatten(), nn.Linear(12, 32), nn.LeakyReLU(0.1), nn.Linear(32, S * S * (C + B * 5)))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p) * 0.2)
x = torch.cos(torch.arange(2 * 12, dtype=torch.float32) * 0.4).view(2, 3, 2, 2)
target = torch.zeros(2, S, S, C + 5)
target[0, 1, 1] = torch.tensor([0., 1., 0., 1., 0.4, 0.6, 0.5, 0.3])
target[0, 0, 2] = torch.tensor([0., 0., 1., 1., 0.2, 0.1, 0.2, 0.4])
target[1, 2, 0] = torch.tensor([1., 0., 0., 1., 0.7, 0.5, 0.9, 0.8])
loss_fn = YoloLoss(S, B, C)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=0)
for step in range(4):
    out = model(x)
    loss, bestbox = loss_fn(out, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('step', step, round(loss.item(), 4), 'bestbox', bestbox.flatten().tolist()[:6])
with torch.no_grad():
    boxes = cellboxes_to_boxes(model(x))
print('converted', [round(v, 4) for v in boxes[0][4]])
nms_boxes = non_max_suppression(boxes[0], iou_threshold=0.5, threshold=-1.0, box_format="midpoint")
print('after nms', len(nms_boxes), [round(v, 3) for v in nms_boxes[0]])
