"""A Vision Transformer as common public code writes it: patchify with unfold and with a strided Conv2d,
a cls token expanded over the batch, learned position embeddings with trunc_normal_ init,
nn.TransformerEncoderLayer(batch_first=True, norm_first=True, activation='gelu'), timm-style
DropPath (stochastic depth with a bernoulli mask), a label-smoothed loss, cosine-with-warmup
scheduling through OneCycleLR, and top-1 accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0., scale_by_keep: bool = True):
        super(DropPath, self).__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f'drop_prob={round(self.drop_prob, 3):0.3f}'


class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=16):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        x = self.proj(x)
        x = x.flatten(2).transpose(1, 2)
        return x


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=2., drop_path=0.):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.drop_path = DropPath(drop_path) if drop_path > 0. else nn.Identity()
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.drop_path(self.attn(h, h, h, need_weights=False)[0])
        x = x + self.drop_path(self.mlp(self.norm2(x)))
        return x


class VisionTransformer(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, num_classes=4, embed_dim=16, depth=2, num_heads=2,
                 drop_path_rate=0.1, use_torch_layer=False):
        super().__init__()
        self.patch_embed = PatchEmbed(img_size, patch_size, in_chans, embed_dim)
        num_patches = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, depth)]
        if use_torch_layer:
            layer = nn.TransformerEncoderLayer(embed_dim, num_heads, dim_feedforward=2 * embed_dim, dropout=0.0,
                                               activation='gelu', batch_first=True, norm_first=True)
            self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        else:
            self.blocks = nn.Sequential(*[Block(embed_dim, num_heads, drop_path=dpr[i]) for i in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Linear(embed_dim, num_classes)
        nn.init.trunc_normal_(self.pos_embed, std=.02)
        nn.init.trunc_normal_(self.cls_token, std=.02)
        self.apply(self._init_weights)

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.LayerNorm):
            nn.init.constant_(m.bias, 0)
            nn.init.constant_(m.weight, 1.0)

    @torch.jit.ignore
    def no_weight_decay(self):
        return {'pos_embed', 'cls_token'}

    def forward_features(self, x):
        B = x.shape[0]
        x = self.patch_embed(x)
        cls_tokens = self.cls_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        x = x + self.pos_embed
        x = self.blocks(x)
        x = self.norm(x)
        return x[:, 0]

    def forward(self, x):
        return self.head(self.forward_features(x))


torch.manual_seed(0)
images = torch.rand(6, 3, 8, 8)
labels = torch.randint(0, 4, (6,))
patches = images.unfold(2, 4, 4).unfold(3, 4, 4)
print(patches.shape, patches.permute(0, 2, 3, 1, 4, 5).reshape(6, 4, -1).shape)
print(patches[0, 0, 1, 0], torch.equal(patches[0, :, 1, 0], images[0, :, 4:8, 0:4]))
print(drop_path(torch.ones(4, 2), 0.5, training=True))
for use_torch_layer in (False, True):
    torch.manual_seed(1)
    model = VisionTransformer(use_torch_layer=use_torch_layer)
    print(model.cls_token.abs().max() < 0.05, sorted(model.no_weight_decay()), sum(p.numel() for p in model.parameters()))
    decay = [p for n, p in model.named_parameters() if p.ndim > 1 and n not in model.no_weight_decay()]
    no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1 or n in model.no_weight_decay()]
    optimizer = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.05}, {'params': no_decay, 'weight_decay': 0.}], lr=1e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, total_steps=6, pct_start=0.3)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    for step in range(6):
        model.train()
        optimizer.zero_grad()
        logits = model(images)
        loss = criterion(logits, labels)
        loss.backward()
        optimizer.step()
        scheduler.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(use_torch_layer, step, f'{loss.item():.4f}', f'{acc:.3f}', f'{scheduler.get_last_lr()[0]:.6f}')
    model.eval()
    with torch.no_grad():
        print(F.softmax(model(images[:2]), -1))
print(model.blocks.layers[0].norm_first, Block(16, 2, drop_path=0.1).drop_path)
