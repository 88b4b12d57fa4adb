"""川牌 Sichuan long cards (spec rules/chuanpai.md): cards (deck, ids, notation), analysis (M(H),
paired cards, discards, compulsory takes). The table (rules) is not yet written."""
