"""Hugging Face-style encoder code and hooks: a tiny BERT (non-persistent position_ids buffer,
token_type embeddings, transpose_for_scores, the extended attention mask with finfo.min, pooler),
_init_weights zeroing the padding_idx row, no_decay parameter groups, get_linear_schedule_with_warmup as
a LambdaLR, output_hidden_states, forward hooks collecting attention probabilities, and Grad-CAM with
a forward hook and a full backward hook."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import LambdaLR


class Config:
    vocab_size = 20
    hidden_size = 8
    num_hidden_layers = 2
    num_attention_heads = 2
    intermediate_size = 16
    max_position_embeddings = 12
    type_vocab_size = 2
    layer_norm_eps = 1e-12
    hidden_dropout_prob = 0.1
    attention_probs_dropout_prob = 0.1
    initializer_range = 0.02
    pad_token_id = 0
    num_labels = 3


class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.register_buffer("position_ids", torch.arange(config.max_position_embeddings).expand((1, -1)), persistent=False)
        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size()[1]
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            buffered_token_type_ids = self.token_type_ids[:, :seq_length]
            token_type_ids = buffered_token_type_ids.expand(input_ids.shape[0], seq_length)
        embeddings = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        embeddings += self.position_embeddings(position_ids)
        embeddings = self.LayerNorm(embeddings)
        return self.dropout(embeddings)


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)
        self.softmax = nn.Softmax(dim=-1)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            attention_scores = attention_scores + attention_mask
        attention_probs = self.softmax(attention_scores)
        attention_probs = self.dropout(attention_probs)
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        return context_layer.view(new_context_layer_shape)


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.attention_output = nn.Linear(config.hidden_size, config.hidden_size)
        self.LayerNorm1 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.LayerNorm2 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, hidden_states, attention_mask):
        attn = self.dropout(self.attention_output(self.attention(hidden_states, attention_mask)))
        hidden_states = self.LayerNorm1(attn + hidden_states)
        inter = F.gelu(self.intermediate(hidden_states))
        return self.LayerNorm2(self.dropout(self.output(inter)) + hidden_states)


class BertForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.layer = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])
        self.pooler = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            module.weight.data.normal_(mean=0.0, std=self.config.initializer_range)
            if module.bias is not None:
                module.bias.data.zero_()
        elif isinstance(module, nn.Embedding):
            module.weight.data.normal_(mean=0.0, std=self.config.initializer_range)
            if module.padding_idx is not None:
                module.weight.data[module.padding_idx].zero_()
        elif isinstance(module, nn.LayerNorm):
            module.bias.data.zero_()
            module.weight.data.fill_(1.0)

    def get_extended_attention_mask(self, attention_mask, dtype=torch.float32):
        extended_attention_mask = attention_mask[:, None, None, :]
        extended_attention_mask = extended_attention_mask.to(dtype=dtype)
        return (1.0 - extended_attention_mask) * torch.finfo(dtype).min

    def forward(self, input_ids, attention_mask=None, labels=None, output_hidden_states=False):
        if attention_mask is None:
            attention_mask = torch.ones(input_ids.shape, device=input_ids.device)
        extended = self.get_extended_attention_mask(attention_mask)
        hidden_states = self.embeddings(input_ids)
        all_hidden_states = () if output_hidden_states else None
        for layer_module in self.layer:
            if output_hidden_states:
                all_hidden_states = all_hidden_states + (hidden_states,)
            hidden_states = layer_module(hidden_states, extended)
        pooled_output = torch.tanh(self.pooler(hidden_states[:, 0]))
        logits = self.classifier(self.dropout(pooled_output))
        loss = None
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, self.config.num_labels), labels.view(-1))
        return loss, logits, all_hidden_states


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    def lr_lambda(current_step: int):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))
    return LambdaLR(optimizer, lr_lambda, last_epoch)


torch.manual_seed(42)
config = Config()
model = BertForSequenceClassification(config)
print(model.embeddings.word_embeddings.weight[0].abs().sum().item(), 'embeddings.position_ids' in model.state_dict(),
      [n for n, _ in model.named_buffers()])
input_ids = torch.tensor([[1, 5, 7, 9, 2, 0, 0], [1, 4, 4, 8, 6, 3, 2], [1, 11, 2, 0, 0, 0, 0]])
attention_mask = (input_ids != config.pad_token_id).long()
labels = torch.tensor([0, 2, 1])
print(model.get_extended_attention_mask(attention_mask)[2, 0, 0], torch.finfo(torch.float32).min)

no_decay = ["bias", "LayerNorm.weight"]
optimizer_grouped_parameters = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
]
print([len(g["params"]) for g in optimizer_grouped_parameters])
optimizer = torch.optim.AdamW(optimizer_grouped_parameters, lr=5e-3, eps=1e-8)
scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=2, num_training_steps=8)

attention_maps = {}


def save_attention(name):
    def hook(module, inputs, output):
        q = module.transpose_for_scores(module.query(inputs[0]))
        k = module.transpose_for_scores(module.key(inputs[0]))
        scores = q @ k.transpose(-1, -2) / math.sqrt(module.attention_head_size) + inputs[1]
        attention_maps[name] = scores.softmax(-1).detach()
    return hook


handles = [layer.attention.register_forward_hook(save_attention(f"layer{i}")) for i, layer in enumerate(model.layer)]
model.train()
for step in range(8):
    loss, logits, _ = model(input_ids, attention_mask=attention_mask, labels=labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    if step % 2 == 1:
        print(step, f"{loss.item():.4f}", [round(lr, 6) for lr in scheduler.get_last_lr()])
for h in handles:
    h.remove()
print(sorted(attention_maps), attention_maps["layer1"][2, 0, 0], len(model.layer[0].attention._forward_hooks))
model.eval()
with torch.no_grad():
    _, logits, hidden = model(input_ids, attention_mask=attention_mask, output_hidden_states=True)
print(logits.argmax(-1), len(hidden), hidden[1].shape, F.softmax(logits, dim=-1)[0])


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(4, 6, 3, padding=1), nn.ReLU())
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 5))

    def forward(self, x):
        return self.classifier(self.features(x))


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model
        self.activations = None
        self.gradients = None
        self.handles = [target_layer.register_forward_hook(self.save_activation),
                        target_layer.register_full_backward_hook(self.save_gradient)]

    def save_activation(self, module, input, output):
        self.activations = output.detach()

    def save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()

    def __call__(self, x, class_idx=None):
        self.model.zero_grad()
        output = self.model(x)
        if class_idx is None:
            class_idx = output.argmax(dim=1)
        one_hot = torch.zeros_like(output).scatter_(1, class_idx.unsqueeze(1), 1.0)
        output.backward(gradient=one_hot)
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1, keepdim=True))
        cam = F.interpolate(cam, size=x.shape[-2:], mode="bilinear", align_corners=False)
        cam_min = cam.flatten(1).min(1)[0].view(-1, 1, 1, 1)
        cam_max = cam.flatten(1).max(1)[0].view(-1, 1, 1, 1)
        return (cam - cam_min) / (cam_max - cam_min + 1e-8), class_idx


torch.manual_seed(0)
cnn = SmallCNN()
images = torch.rand(2, 3, 8, 8)
gradcam = GradCAM(cnn, cnn.features[3])
cam, cls = gradcam(images)
print(cam.shape, cls, cam[0, 0, 0, :4], cam.amax(dim=(1, 2, 3)))
print(gradcam.activations.shape, gradcam.gradients.shape, cnn.features[3].weight.grad.abs().sum() > 0)
for h in gradcam.handles:
    h.remove()
print(len(cnn.features[3]._forward_hooks), len(cnn.features[3]._backward_hooks))
