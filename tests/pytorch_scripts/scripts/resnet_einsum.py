import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super(BasicBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != self.expansion * planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, self.expansion * planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(self.expansion * planes)
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        out = F.relu(out)
        return out


class ResNet(nn.Module):
    def __init__(self, block, num_blocks, num_classes=5):
        super(ResNet, self).__init__()
        self.in_planes = 4
        self.conv1 = nn.Conv2d(3, 4, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.layer1 = self._make_layer(block, 4, num_blocks[0], stride=1)
        self.layer2 = self._make_layer(block, 8, num_blocks[1], stride=2)
        self.linear = nn.Linear(8 * block.expansion, num_classes)

    def _make_layer(self, block, planes, num_blocks, stride):
        strides = [stride] + [1] * (num_blocks - 1)
        layers = []
        for stride in strides:
            layers.append(block(self.in_planes, planes, stride))
            self.in_planes = planes * block.expansion
        return nn.Sequential(*layers)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer1(out)
        out = self.layer2(out)
        out = F.adaptive_avg_pool2d(out, (1, 1))
        out = out.view(out.size(0), -1)
        out = self.linear(out)
        return out


net = ResNet(BasicBlock, [1, 2])
print(net.layer2)
for m in net.modules():
    if isinstance(m, nn.Conv2d):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.3, 0.3, m.weight.numel()).reshape(m.weight.shape).roll(m.weight.size(0)))
    elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)
    elif isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.5, 0.5, m.weight.numel()).reshape(m.weight.shape))
            m.bias.zero_()
x = torch.linspace(-1, 1, 2 * 3 * 8 * 8).reshape(2, 3, 8, 8).cos()
y = torch.tensor([1, 3])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2], gamma=0.1)
for epoch in range(4):
    net.train()
    out = net(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    _, predicted = out.max(1)
    print(epoch, round(loss.item(), 5), predicted.eq(y).sum().item(), sched.get_last_lr())
net.eval()
with torch.no_grad():
    print(net(x), net.bn1.running_mean, net.bn1.num_batches_tracked)
a = torch.arange(6.).reshape(2, 3)
b = torch.arange(12.).reshape(3, 4)
print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ii", torch.eye(3)), torch.einsum("i,j->ij", a[0], a[1]))
q = torch.linspace(-1, 1, 2 * 2 * 3 * 4).reshape(2, 2, 3, 4)
att = torch.einsum("bhqd,bhkd->bhqk", q, q) / 2.0
print(att.softmax(-1)[0, 0], torch.einsum("bhqk,bhkd->bhqd", att.softmax(-1), q).shape)
print(F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 0])
print(torch.einsum("...ij->...ji", q).shape, torch.einsum("bij,bjk", q[0], q[0].transpose(1, 2)).shape)
