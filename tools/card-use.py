import json, subprocess, sys, collections, re
# usage: cards.py BIN GAMES [packs...]
binp, games = sys.argv[1], int(sys.argv[2]); packs = sys.argv[3:]
worth={"dazzled":-0.3,"focused":0.3,"immobilized":-0.3,"poisoned":-0.3,"stunned":-0.4,"taunted":-0.2,
"minus-2-energy":-0.2,"minus-2-speed":-0.3,"plus-2-initiative":0.1,"minus-2-initiative":-0.1,
"burning":-0.4,"marked":-0.2,"hidden":0.3,"silenced":-0.3}
uses=collections.Counter(); harm_ally=collections.Counter(); harm_enemy=collections.Counter(); harm_self=collections.Counter()
help_ally=collections.Counter(); help_enemy=collections.Counter()
tot_harm=0; tot_harm_ally=0
centres={'zone-1':(0,-7),'zone-2':(7,-7),'zone-3':(7,0),'zone-4':(0,7),'zone-5':(-7,7),'zone-6':(-7,0),'central':(0,0)}
def zone_spaces(z):
    q,r=centres[z]; return {(q,r),(q+1,r),(q-1,r),(q,r+1),(q,r-1),(q+1,r-1),(q-1,r+1)}
self_in=0; self_left=0
for seed in range(1, games+1):
    out = subprocess.run([binp,'sim','assault','--seed',str(seed),'--random-teams','--format','json']+sum([['--pack',p] for p in packs],[]), capture_output=True, text=True).stdout
    d = json.loads(out); owner={}
    cause=None; action_cause=None; zone=zone_spaces('central')
    for e in d['events']:
        k=e['event']
        if k=='game-started':
            for s,t in enumerate(e['teams']):
                for c in t: owner[c]=s
        elif k=='scoring-zone':
            zone=zone_spaces(e['zone'])
        elif k=='displaced' and cause and cause[1]==e['character']:
            f=(e['from']['q'],e['from']['r']); t=(e['to']['q'],e['to']['r'])
            if f in zone:
                self_in+=1
                if t not in zone: self_left+=1
        if k=='activation-started': cause=None; action_cause=None
        elif k=='roll-result': cause=action_cause
        elif k in ('activation-skipped','underdog','benched','victory-points','scoring-zone','round-started','returned-from-bench','state-flipped','initiative','running-order','prime-time','objective-drawn'):
            cause=None; action_cause=None
        elif k=='action':
            if e['action']=='move': cause=None
            else: cause=(e['action'], e['character']); action_cause=cause; uses[e['action']]+=1
        elif k=='switch': cause=(e['switch'], e['character']); uses[e['switch']]+=1
        elif k=='tactic-played': cause=(e['tactic'], e['character']); uses[e['tactic']]+=1
        elif k=='log':
            m=re.match(r"^(\S+)'s (.+?):", e['text'])
            m2=re.match(r"^(\S+) uses (\S+)$", e['text'])
            if m2: cause=(m2.group(2), m2.group(1)); uses[m2.group(2)]+=1
        elif k=='state-removed' and e['state']=='focused' and cause is None:
            uses['fairy-dust?']+=1
        elif k in ('damage','state-imposed','healed') and cause:
            tgt=e['character']; card, actor = cause
            if tgt not in owner or actor not in owner: continue
            sign = -1 if k=='damage' else (1 if k=='healed' else (1 if worth.get(e['state'],-0.2)>0 else -1))
            rel = 'self' if tgt==actor else ('ally' if owner[tgt]==owner[actor] else 'enemy')
            if sign<0:
                if rel=='ally': harm_ally[card]+=1; tot_harm_ally+=1; tot_harm+=1
                elif rel=='enemy': harm_enemy[card]+=1; tot_harm+=1
                else: harm_self[card]+=1
            else:
                if rel=='enemy': help_enemy[card]+=1
                elif rel=='ally': help_ally[card]+=1
print(f"harmful effects on Allies (self excluded): {tot_harm_ally}/{tot_harm} = {100*tot_harm_ally/max(tot_harm,1):.1f}%")
for c in ['freerun','medikit','purge-92','stun','focus','fairy-dust?','minus-2-speed','d-buff3r','misdirection','suppressive-fire','hey-malpario','gotcha']:
    print(f"  {c:18} uses {uses[c]:5}  harm ally {harm_ally[c]:4} enemy {harm_enemy[c]:4}  help ally {help_ally[c]:4} enemy {help_enemy[c]:4}")
print(f"self-Displacements from inside the Scoring Zone: {self_in}, leaving it: {self_left} = {100*self_left/max(self_in,1):.1f}%")
print("top ally harm:", harm_ally.most_common(8))
print("help to enemies:", help_enemy.most_common(8))
