"""Messages of what follows a decision: F what flips it (SPEC 6.3 sensitivity) and S sign-off
refusals (English and Simplified Chinese; rendered by ``messages.py``)."""

from __future__ import annotations

FOLLOWUP_MESSAGES: dict[str, dict[str, str]] = {
    # F. What flips the decision (SPEC 6.3 sensitivity): the nearest break-even values.
    "F.delay_cost.above": {
        "en": "If an hour of waiting is worth more than {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若每小时等待的代价高于 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.delay_cost.below": {
        "en": "If an hour of waiting is worth less than {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若每小时等待的代价低于 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.compress_ratio.above": {
        "en": "If the data compresses to more than {value} of its size (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若数据压缩后大于原来的 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.compress_ratio.below": {
        "en": "If the data compresses to less than {value} of its size (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若数据压缩后小于原来的 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.queue.above": {
        "en": "If the {subject} queue rises above {value} h (now {current} h)"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的排队时间升到 {value} 小时以上(现为 {current} 小时)"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.queue.below": {
        "en": "If the {subject} queue drops below {value} h (now {current} h)"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的排队时间降到 {value} 小时以下(现为 {current} 小时)"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.bandwidth.above": {
        "en": "If the {subject} link's bandwidth rises above {value} Gbit/s (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路带宽升到 {value} Gbit/s 以上(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.bandwidth.below": {
        "en": "If the {subject} link's bandwidth drops below {value} Gbit/s (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路带宽降到 {value} Gbit/s 以下(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price_per_gb.above": {
        "en": "If transfer over {subject} costs more than {value} per GB (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路的传输单价高于每 GB {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price_per_gb.below": {
        "en": "If transfer over {subject} costs less than {value} per GB (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路的传输单价低于每 GB {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price.above": {
        "en": "If the price of {subject} rises above {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的价格升到 {value} 以上(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price.below": {
        "en": "If the price of {subject} drops below {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的价格降到 {value} 以下(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    # S. Sign-off refusals
    "S.block_finding": {
        "en": "A blocking finding stands ({rule}): {finding}",
        "zh_Hans": "存在阻断项({rule}):{finding}",
    },
    "S.self_approval": {
        "en": "The author of a review cannot sign it off.",
        "zh_Hans": "评审的作者不能给自己签字。",
    },
    "S.already_decided": {
        "en": "This reviewer has already decided on this review.",
        "zh_Hans": "该评审人已经对本评审做过决定。",
    },
    "S.stale_snapshot": {
        "en": "The inputs changed after this snapshot was computed: sign off on the latest one.",
        "zh_Hans": "该快照计算后输入已变更:请在最新快照上签字。",
    },
}
