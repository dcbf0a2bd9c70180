# BERT-style masked language model (HuggingFace modeling_bert / google-research BERT shapes):
# word+position+token_type embeddings with LayerNorm(eps=1e-12), extended attention mask with
# torch.finfo(dtype).min, GELU prediction head, decoder tied to word embeddings, 80/10/10 masking,
# CrossEntropy with ignore_index=-100, pooler + next sentence prediction.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Config:
    vocab_size = 23
    hidden_size = 16
    num_hidden_layers = 2
    num_attention_heads = 4
    intermediate_size = 32
    max_position_embeddings = 16
    type_vocab_size = 2
    layer_norm_eps = 1e-12
    hidden_dropout_prob = 0.0
    initializer_range = 0.02
    pad_token_id = 0


class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.register_buffer("position_ids", torch.arange(config.max_position_embeddings).expand((1, -1)), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            token_type_ids = torch.zeros(input_ids.size(), dtype=torch.long, device=input_ids.device)
        embeddings = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        embeddings += self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(embeddings))


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        return context_layer.view(new_context_layer_shape), attention_probs


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.attn_out = nn.Linear(config.hidden_size, config.hidden_size)
        self.attn_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.out_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states, attention_mask):
        context, probs = self.attention(hidden_states, attention_mask)
        attention_output = self.attn_norm(self.attn_out(context) + hidden_states)
        intermediate = F.gelu(self.intermediate(attention_output))
        return self.out_norm(self.output(intermediate) + attention_output), probs


class BertPredictionHeadTransform(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.transform_act_fn = nn.GELU()
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states):
        return self.LayerNorm(self.transform_act_fn(self.dense(hidden_states)))


class BertLMPredictionHead(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.transform = BertPredictionHeadTransform(config)
        self.decoder = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))
        self.decoder.bias = self.bias

    def forward(self, hidden_states):
        return self.decoder(self.transform(hidden_states))


class BertForPreTraining(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.layers = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])
        self.pooler = nn.Linear(config.hidden_size, config.hidden_size)
        self.predictions = BertLMPredictionHead(config)
        self.seq_relationship = nn.Linear(config.hidden_size, 2)
        self.apply(self._init_weights)
        self.predictions.decoder.weight = self.embeddings.word_embeddings.weight  # tie_weights

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

    def get_extended_attention_mask(self, attention_mask, dtype):
        extended_attention_mask = attention_mask[:, None, None, :]
        extended_attention_mask = extended_attention_mask.to(dtype=dtype)
        return (1.0 - extended_attention_mask) * torch.finfo(dtype).min

    def forward(self, input_ids, attention_mask, token_type_ids, labels=None, next_sentence_label=None):
        hidden = self.embeddings(input_ids, token_type_ids)
        ext = self.get_extended_attention_mask(attention_mask, hidden.dtype)
        for layer in self.layers:
            hidden, probs = layer(hidden, ext)
        pooled = torch.tanh(self.pooler(hidden[:, 0]))
        prediction_scores = self.predictions(hidden)
        seq_relationship_score = self.seq_relationship(pooled)
        total_loss = None
        if labels is not None and next_sentence_label is not None:
            loss_fct = nn.CrossEntropyLoss()
            masked_lm_loss = loss_fct(prediction_scores.view(-1, self.config.vocab_size), labels.view(-1))
            next_sentence_loss = loss_fct(seq_relationship_score.view(-1, 2), next_sentence_label.view(-1))
            total_loss = masked_lm_loss + next_sentence_loss
        return total_loss, prediction_scores, seq_relationship_score, probs


def mask_tokens(inputs, special_tokens_mask, mask_token_id, vocab_size, mlm_probability=0.15, generator=None):
    # DataCollatorForLanguageModeling.torch_mask_tokens
    labels = inputs.clone()
    probability_matrix = torch.full(labels.shape, mlm_probability)
    probability_matrix.masked_fill_(special_tokens_mask, value=0.0)
    masked_indices = torch.bernoulli(probability_matrix, generator=generator).bool()
    labels[~masked_indices] = -100
    indices_replaced = torch.bernoulli(torch.full(labels.shape, 0.8), generator=generator).bool() & masked_indices
    inputs[indices_replaced] = mask_token_id
    indices_random = torch.bernoulli(torch.full(labels.shape, 0.5), generator=generator).bool() & masked_indices & ~indices_replaced
    random_words = torch.randint(vocab_size, labels.shape, dtype=torch.long, generator=generator)
    inputs[indices_random] = random_words[indices_random]
    return inputs, labels


config = Config()
model = BertForPreTraining(config)
# weights from a formula so that the numbers below do not depend on the normal_ stream
with torch.no_grad():
    for name, p in model.named_parameters():
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + len(name)).view_as(p) * 0.1)
    model.embeddings.word_embeddings.weight[0].zero_()
print('tied', model.predictions.decoder.weight is model.embeddings.word_embeddings.weight,
      model.predictions.decoder.bias is model.predictions.bias)
print('parameters', sum(p.numel() for p in model.parameters()), len(list(model.parameters())))
print('buffers', [n for n, _ in model.named_buffers()], 'state_dict has position_ids', 'embeddings.position_ids' in model.state_dict())

CLS, SEP, MASK = 1, 2, 3
input_ids = torch.tensor([[CLS, 5, 6, 7, 8, SEP, 9, 10, 11, SEP, 0, 0],
                          [CLS, 12, 13, 14, SEP, 15, 16, 17, 18, 19, 20, SEP]])
token_type_ids = torch.tensor([[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0],
                               [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]])
attention_mask = (input_ids != 0).long()
special = (input_ids == CLS) | (input_ids == SEP) | (input_ids == 0)
# a fixed masking decision (a real collator draws it), then the collator run with its own generator
labels = torch.full_like(input_ids, -100)
mask_pos = torch.tensor([[0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]]).bool()
labels[mask_pos] = input_ids[mask_pos]
masked_inputs = input_ids.masked_fill(mask_pos, MASK)
print('labels', labels.tolist())
g = torch.Generator().manual_seed(123)
m_in, m_lab = mask_tokens(input_ids.clone(), special, MASK, config.vocab_size, mlm_probability=0.5, generator=g)
print('collator: masked count', int((m_lab != -100).sum()), 'special untouched', bool((m_lab[special] == -100).all()))
next_sentence_label = torch.tensor([0, 1])

ext = model.get_extended_attention_mask(attention_mask, torch.float32)
print('extended mask', tuple(ext.shape), ext[0, 0, 0, -3:].tolist())

no_decay = ["bias", "LayerNorm.weight", "attn_norm.weight", "out_norm.weight"]
groups = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
]
print('group sizes', [len(gr['params']) for gr in groups])
optimizer = torch.optim.AdamW(groups, lr=5e-3, betas=(0.9, 0.999), eps=1e-6)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 2) * max(0.0, (6 - step) / 6))
for step in range(4):
    loss, scores, nsp, probs = model(masked_inputs, attention_mask, token_type_ids, labels, next_sentence_label)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    print('step', step, round(loss.item(), 5), 'lr', round(scheduler.get_last_lr()[0], 6))
print('pad attention', round(probs[0, :, :, -2:].abs().max().item(), 6))
print('padding row grad', model.embeddings.word_embeddings.weight.grad[0].abs().sum().item())
model.eval()
with torch.no_grad():
    _, scores, nsp, _ = model(masked_inputs, attention_mask, token_type_ids)
    pred = scores.argmax(-1)
print('predictions at masks', pred[mask_pos].tolist(), 'nsp', nsp.softmax(-1).argmax(-1).tolist())
print('top3 at first mask', torch.topk(scores[0, 2].softmax(-1), 3).indices.tolist())
