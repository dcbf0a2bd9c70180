"""Contrastive pre-training as openai/CLIP and facebookresearch/moco write it: CLIP's logit_scale
parameter initialised to log(1 / 0.07), features L2-normalised with .norm(dim=1, keepdim=True),
logits_per_image / logits_per_text = .t(), the symmetric cross entropy against torch.arange labels,
logit_scale clamped in place after the step (data.clamp_(0, 4.6052)), zero-shot classification by
softmax over text prototypes; MoCo v2's momentum key encoder (param_k.data.mul_(m).add_(param_q.data,
alpha=1-m) under no_grad), a queue buffer normalised along dim 0 with a queue_ptr long buffer,
_dequeue_and_enqueue by slice assignment of keys.T, positives by einsum('nc,nc->n') and negatives
by einsum('nc,ck->nk'), logits /= T, zero labels, and accuracy of the positive; then SupCon's
supervised contrastive loss with a label mask, logits_mask via scatter and log-prob normalisation."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyCLIP(nn.Module):
    def __init__(self, img_dim=12, txt_dim=10, embed_dim=8):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(img_dim, 16), nn.GELU(), nn.Linear(16, embed_dim))
        self.text_projection = nn.Parameter(torch.empty(txt_dim, embed_dim))
        nn.init.normal_(self.text_projection, std=txt_dim ** -0.5)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    def encode_image(self, image):
        return self.visual(image)

    def encode_text(self, text):
        return text @ self.text_projection

    def forward(self, image, text):
        image_features = self.encode_image(image)
        text_features = self.encode_text(text)
        image_features = image_features / image_features.norm(dim=1, keepdim=True)
        text_features = text_features / text_features.norm(dim=1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_features @ text_features.t()
        logits_per_text = logits_per_image.t()
        return logits_per_image, logits_per_text


clip = TinyCLIP()
print("logit_scale", clip.logit_scale.shape, round(clip.logit_scale.item(), 5), clip.logit_scale.dtype)
images, texts = torch.randn(6, 12), torch.randn(6, 10)
opt = torch.optim.AdamW(clip.parameters(), lr=5e-3, weight_decay=0.2)
for step in range(4):
    logits_per_image, logits_per_text = clip(images, texts)
    labels = torch.arange(len(images))
    loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        clip.logit_scale.data.clamp_(0, 4.6052)
    print(f"clip step {step} loss {loss.item():.4f} scale {clip.logit_scale.exp().item():.3f}",
          logits_per_text.grad_fn.name())
with torch.no_grad():
    image_features = F.normalize(clip.encode_image(images[:2]), dim=-1)
    text_features = F.normalize(clip.encode_text(texts), dim=-1)
    similarity = (100.0 * image_features @ text_features.T).softmax(dim=-1)
    values, indices = similarity[0].topk(3)
print("zero-shot", similarity.shape, indices.tolist(), round(values.sum().item(), 4) <= 1.0)


class MoCo(nn.Module):
    def __init__(self, dim=8, K=12, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.register_buffer("queue", torch.randn(dim, K))
        self.queue = nn.functional.normalize(self.queue, dim=0)
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
        self.queue[:, ptr:ptr + batch_size] = keys.T
        ptr = (ptr + batch_size) % self.K
        self.queue_ptr[0] = ptr

    def forward(self, im_q, im_k):
        q = nn.functional.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = nn.functional.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1)
        logits /= self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


moco = MoCo()
print("queue", moco.queue.shape, torch.allclose(moco.queue.norm(dim=0), torch.ones(12)), moco.queue_ptr,
      sorted(moco.state_dict().keys())[-2:])
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, moco.parameters()), lr=0.05, momentum=0.9, weight_decay=1e-4)
x = torch.randn(4, 10)
for step in range(4):
    logits, labels = moco(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == labels).float().mean()
    print(f"moco step {step} logits {tuple(logits.shape)} ptr {moco.queue_ptr.item()} loss {loss.item():.3f} acc {acc.item():.2f}")
diff = sum((pq - pk).abs().sum() for pq, pk in zip(moco.encoder_q.parameters(), moco.encoder_k.parameters()))
print("key encoder lags", diff.item() > 0, moco.encoder_k[0].weight.requires_grad, moco.encoder_k[0].weight.grad)


def supcon_loss(features, labels, temperature=0.1, base_temperature=0.07):
    batch_size = features.shape[0]
    labels = labels.contiguous().view(-1, 1)
    mask = torch.eq(labels, labels.T).float()
    contrast_count = features.shape[1]
    contrast_feature = torch.cat(torch.unbind(features, dim=1), dim=0)
    anchor_feature, anchor_count = contrast_feature, contrast_count
    anchor_dot_contrast = torch.div(torch.matmul(anchor_feature, contrast_feature.T), temperature)
    logits_max, _ = torch.max(anchor_dot_contrast, dim=1, keepdim=True)
    logits = anchor_dot_contrast - logits_max.detach()
    mask = mask.repeat(anchor_count, contrast_count)
    logits_mask = torch.scatter(torch.ones_like(mask), 1, torch.arange(batch_size * anchor_count).view(-1, 1), 0)
    mask = mask * logits_mask
    exp_logits = torch.exp(logits) * logits_mask
    log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
    mask_pos_pairs = mask.sum(1)
    mask_pos_pairs = torch.where(mask_pos_pairs < 1e-6, 1, mask_pos_pairs)
    mean_log_prob_pos = (mask * log_prob).sum(1) / mask_pos_pairs
    loss = - (temperature / base_temperature) * mean_log_prob_pos
    return loss.view(anchor_count, batch_size).mean()


feats = F.normalize(torch.randn(6, 2, 8), dim=-1).requires_grad_()
sl = supcon_loss(feats, torch.tensor([0, 1, 0, 2, 1, 0]))
sl.backward()
print("supcon", round(sl.item(), 4), sl.grad_fn.name(), feats.grad.shape)
