# PixelCNN with masked convolutions (the classic "MaskedConv2d" from pixel-cnn-pytorch repos):
# register_buffer mask, self.weight.data *= self.mask in forward, type 'A'/'B' masks, 256-way
# cross entropy on quantised pixels, autoregressive sampling with torch.multinomial.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super(MaskedConv2d, self).__init__(*args, **kwargs)
        assert mask_type in {'A', 'B'}
        self.register_buffer('mask', self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == 'B'):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0

    def forward(self, x):
        self.weight.data *= self.mask
        return super(MaskedConv2d, self).forward(x)


fm = 8
levels = 4
net = nn.Sequential(
    MaskedConv2d('A', 1, fm, 5, 1, 2, bias=False), nn.BatchNorm2d(fm), nn.ReLU(True),
    MaskedConv2d('B', fm, fm, 3, 1, 1, bias=False), nn.BatchNorm2d(fm), nn.ReLU(True),
    MaskedConv2d('B', fm, fm, 3, 1, 1, bias=False), nn.BatchNorm2d(fm), nn.ReLU(True),
    nn.Conv2d(fm, levels, 1))
print(net[0].mask[0, 0].tolist())
print(net[3].mask[0, 0].tolist())
print('buffers', [n for n, _ in net.named_buffers() if n.endswith('mask')])
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view_as(p) * 0.3)

# images: diagonal stripes quantised to `levels` values
ii, jj = torch.meshgrid(torch.arange(6), torch.arange(6), indexing='ij')
base = ((ii + jj) % levels)
data = torch.stack([base, (base + 1) % levels, (levels - 1 - base)]).unsqueeze(1)
inputs = data.float() / (levels - 1)
target = data.squeeze(1).long()
optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
for epoch in range(6):
    net.train()
    output = net(inputs)
    loss = F.cross_entropy(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('epoch', epoch, round(loss.item(), 5))

# causality: output at (r, c) does not depend on pixels at or after (r, c) in raster order
net.eval()
x = inputs[:1].clone().requires_grad_(True)
net(x)[0, :, 2, 3].sum().backward()
print('receptive field', (x.grad[0, 0] != 0).int().tolist())

sample = torch.zeros(2, 1, 6, 6)
with torch.no_grad():
    for i in range(6):
        for j in range(6):
            out = net(sample)
            probs = F.softmax(out[:, :, i, j], dim=1)
            sample[:, :, i, j] = torch.multinomial(probs, 1).float() / (levels - 1)
print('sample', (sample[0, 0] * (levels - 1)).round().long().tolist())
print('bits/dim', round(loss.item() / torch.log(torch.tensor(2.)).item(), 4))
