M=0xFFFFFFFF
def u32(x): return x & M
def s32(x):
    x &= M; return x - (1<<32) if x & 0x80000000 else x
def sdiv(a,b):
    a,b=s32(a),s32(b)
    if b==0: return -1
    if a==-(1<<31) and b==-1: return a
    q=abs(a)//abs(b); return s32(q if (a<0)==(b<0) else -q)
def srem(a,b):
    a,b=s32(a),s32(b)
    if b==0: return a
    return s32(a - sdiv(a,b)*b)
def popc(x): return bin(u32(x)).count('1')
def clz(x): return 32-u32(x).bit_length()
def ffs(x): x=u32(x); return (x & -x).bit_length()
def brev(x): return int(format(u32(x),'032b')[::-1],2)
def sext(x,b):
    x&=(1<<b)-1; return x-(1<<b) if x>>(b-1) else x
def prmt(a,b,sel):
    src=u32(a)|(u32(b)<<32); r=0
    for n in range(4):
        s=(sel>>(4*n))&0xf; byte=(src>>(8*(s&7)))&0xff
        if s&8: byte=0xff if byte&0x80 else 0
        r|=byte<<(8*n)
    return r
REFS={}
def ref(f): REFS[f.__name__]=f; return f

def shfl(vals, lane, mode, b, width):
    # vals: dict lane->value (32-lane ids); CUDA c encoding
    seg=(32-width)&0x1f
    clamp = 0 if mode=='up' else 0x1f
    maxL=(lane&seg)|(clamp&~seg&0x1f); minL=lane&seg
    if mode=='up': j=lane-b; ok=j>=maxL
    elif mode=='down': j=lane+b; ok=j<=maxL
    elif mode=='bfly': j=lane^b; ok=j<=maxL
    else: j=minL|(b&~seg&0x1f); ok=j<=maxL
    return vals[j] if ok else vals[lane]

@ref
def k01_shfl_updown(A,g,bk):
    V={t:t*10+1 for t in range(8)}
    o={k:[0]*8 for k in 'u0 u3 u4 d0 d3 d5 uv'.split()}
    for t in range(8):
        o['u0'][t]=shfl(V,t,'up',0,4); o['u3'][t]=shfl(V,t,'up',3,4); o['u4'][t]=shfl(V,t,'up',4,4)
        o['d0'][t]=shfl(V,t,'down',0,4); o['d3'][t]=shfl(V,t,'down',3,4); o['d5'][t]=shfl(V,t,'down',5,4)
        dd=t%3
        o['uv'][t]=s32(shfl(V,t,'up',dd,4)+1000*shfl(V,t,'down',dd+1,4))
    return o
@ref
def k02_shfl_idx(A,g,bk):
    V={t:t*7+3 for t in range(8)}
    return {'out':[shfl(V,t,'idx',u32(A['src'][t]),4) for t in range(8)],
            'out2':[shfl(V,t,'idx',u32(A['src'][t]),2) for t in range(8)]}
@ref
def k03_shfl_xor(A,g,bk):
    V={t:t*t+1 for t in range(16)}
    o={}
    o['x1']=[shfl(V,t,'bfly',1,4) for t in range(16)]
    o['x2']=[shfl(V,t,'bfly',2,4) for t in range(16)]
    o['x3']=[shfl(V,t,'bfly',3,4) for t in range(16)]
    o['x3w32']=[shfl(V,t,'bfly',3,32) for t in range(16)]
    S=dict(V)
    for off in (1,2):
        S={t:S[t]+shfl(S,t,'bfly',off,4) for t in range(16)}
    o['sum']=[S[t] for t in range(16)]
    return o
@ref
def k04_shfl_divergent(A,g,bk):
    a=A['a']; V={t:a[t] for t in range(16)}
    out=[0]*16
    M_=dict(V)
    M_={t:max(M_[t],shfl(M_,t,'bfly',1,4)) for t in range(16)}
    M_={t:max(M_[t],shfl(M_,t,'bfly',2,4)) for t in range(16)}
    S=dict(V)
    S={t:S[t]+shfl(S,t,'down',2,4) for t in range(16)}
    S={t:S[t]+shfl(S,t,'down',1,4) for t in range(16)}
    for t in range(16):
        out[t]=M_[t] if t<8 else shfl(S,t,'idx',0,4)*2
    return {'out':out}
@ref
def k05_vote_3thr(A,g,bk):
    a=A['a']; n=3
    b=sum(1<<t for t in range(n) if a[t]!=0)
    return {'b':[b]*3,'an':[int(any(x==6 for x in a))]*3,'al':[int(all(x>0 for x in a))]*3,
            'bf':[sum(1<<t for t in range(n) if a[t]>=5)]*3,'al2':[1]*3}
@ref
def k06_activemask(A,g,bk):
    m1=[0x5|0x100,0xa,0x5|0x100,0xa]
    m2=[0x1, 0xa+0x1000, 0, 0xa+0x1000]
    return {'m1':m1,'m2':m2,'m3':[0xc]*4}
@ref
def k07_partial_vote5(A,g,bk):
    a=A['a']
    bb=sum(1<<t for t in range(5) if a[t]!=0)
    cnt=sum(1 for x in a if x>2)
    return {'b':[bb]*5,'c':[popc(bb)*10+cnt]*5,'s':[int(any(x==9 for x in a))*2+int(all(x>=0 for x in a))]*5}
@ref
def k08_partial1(A,g,bk):
    a=A['a']
    return {'out':[2*v for v in a],'b':[(1 if v>0 else 0)|(1<<4) for v in a]}
@ref
def k09_atomics(A,g,bk):
    a=A['a']; acc=[0,0,-2**31,2**31-1,0,-1,0,0]
    acc[0]=s32(sum(a)); acc[1]=16; acc[2]=max(a); acc[3]=min(a)
    acc[4]=s32(max(u32(v) for v in a)); acc[5]=s32(min(u32(-1), min(u32(v)|1 for v in a)))
    acc[6]=s32(0xffff); x=0
    for v in a: x^=u32(v)
    acc[7]=s32(x)
    return {'acc':acc}
@ref
def k10_atomic_cas(A,g,bk):
    p=1
    for v in A['a']: p*=v
    def chk(got):
        bad={}
        if got['prod']!=[p]: bad['prod']=([p],got['prod'])
        if got['cnt']!=[2,1]: bad['cnt']=([2,1],got['cnt'])
        if sorted(got['got']+got['ex'])!=list(range(9)): bad['got+ex']=('perm of 0..8',got['got'],got['ex'])
        return bad
    return {'__check__':chk}
@ref
def k11_barrier_loop(A,g,bk):
    a=A['a']; out=[]
    for b in range(2):
        v=a[b*4:b*4+4]
        for it in range(A['n']):
            buf=list(v); v=[s32(v[t]+buf[(t+1)&3]*(b+1)) for t in range(4)]
        out+=v
    return {'out':out}
@ref
def k12_early_return_bar(A,g,bk):
    a=A['a']; s={t:a[t]*3 for t in range(9) if not (t==2 or t>=7)}
    r=sum(s[j] for j in range(7) if j!=2)
    return {'out':[-1 if (t==2 or t>=7) else r+t for t in range(9)]}
@ref
def k13_nested_break(A,g,bk):
    out=[];out2=[]
    for x in A['a']:
        acc=c=0
        for i in range(6):
            if (x+i)%3==0: continue
            for j in range(5):
                if j*i>x: break
                if (i^j)==3: continue
                acc+=i*10+j; c+=1
            if acc>150: break
        out.append(acc); out2.append(c)
    return {'out':out,'out2':out2}
@ref
def k14_dowhile_switch(A,g,bk):
    st=[];sw=[]
    for x in A['a']:
        u=u32(x); n=0
        while True:
            u = u32(3*u+1) if u&1 else u>>1
            n+=1
            if not (u>1 and n<40): break
        st.append(n)
        r=0; c=x&7
        if c in (0,): r+=1
        if c in (0,1): r+=10
        elif c in (3,4,5):
            if c==3: r+=100
            r+=1000
        else:
            if c==7: r=-r-7
            r+=5
        sw.append(r)
    return {'steps':st,'sw':sw}
@ref
def k15_ternary(A,g,bk):
    out=[]
    for t,x in enumerate(A['a']):
        if x<0: r=-2 if x<-50 else -1
        elif x==0: r=0
        elif x<100: r=1 if x&1 else 2
        elif x>500: r=4
        else: r=3
        out.append(r*100+(x>t)-(x<t))
    return {'out':out}
@ref
def k16_udiv_large(A,g,bk):
    a=[u32(v) for v in A['a']]; b=[u32(v) for v in A['b']]
    return {'q':[x//y for x,y in zip(a,b)],'r':[x%y for x,y in zip(a,b)],
            'qc':[u32(x//2147483649+(x%3000000000)//7) for x in a]}
@ref
def k17_sdiv_neg(A,g,bk):
    a=A['a'];b=A['b']
    return {'q':[sdiv(x,y) for x,y in zip(a,b)],'r':[srem(x,y) for x,y in zip(a,b)],
            'm':[s32(srem(x,5)*100+srem(sdiv(x,4),9)+sdiv(s32(x)>>3,-3)) for x in a]}
@ref
def k18_shifts(A,g,bk):
    o={'sr':[],'ur':[],'sl':[],'rot':[]}
    for x,k in zip(A['a'],A['s']):
        x=s32(x); u=u32(x)
        o['sr'].append(x>>k); o['ur'].append(u>>k); o['sl'].append(s32(u<<k))
        o['rot'].append(u32((u<<k)|(u>>((32-k)&31))))
    return o
@ref
def k19_bitops(A,g,bk):
    a=[u32(v) for v in A['a']]
    return {'br':[brev(x) for x in a],'pc':[popc(x) for x in a],'cz':[clz(x) for x in a],
            'ff':[ffs(x)*100+ffs(x) for x in a]}   # __ffsll((long long)(unsigned)x): zero-ext -> same
@ref
def k20_byteperm(A,g,bk):
    x=[u32(v) for v in A['x']]; y=[u32(v) for v in A['y']]; s=A['s']
    return {'r':[prmt(a,b,c&0x7777) for a,b,c in zip(x,y,s)],
            'rc':[prmt(a,b,0x9c8b&0x7777)^prmt(a,0,0x0123) for a,b in zip(x,y)]}
@ref
def k21_mulhi(A,g,bk):
    a=A['a'];b=A['b']
    return {'hs':[s32((s32(x)*s32(y))>>32) for x,y in zip(a,b)],
            'hu':[(u32(x)*u32(y))>>32 for x,y in zip(a,b)],
            'm24':[s32(sext(x,24)*sext(y,24)) for x,y in zip(a,b)],
            'um24':[u32((u32(x)&0xffffff)*(u32(y)&0xffffff)) for x,y in zip(a,b)]}
@ref
def k22_minmax_mixed(A,g,bk):
    o={'mn':[],'mx':[],'tc':[],'cmp':[]}
    for x,y in zip(A['a'],A['b']):
        ux=u32(x); y=u32(y)
        o['mn'].append(min(ux,y)); o['mx'].append(max(ux,y)); o['tc'].append(min(ux,y))
        o['cmp'].append((ux<y)*4+(s32(x)<s32(y))*2+(s32(x)>-1))
    return o
@ref
def k23_casts(A,g,bk):
    o={k:[] for k in 'sc uc ss us ar'.split()}
    for x in A['a']:
        c=sext(x,8); d=x&0xff; h=sext(x,16); gg=x&0xffff
        o['sc'].append(c);o['uc'].append(d);o['ss'].append(h);o['us'].append(gg)
        c2=sext(c+100,8)
        o['ar'].append(s32(c2*3+sext(h*2,16)+((d<<1)&0xff)))
    return o
@ref
def k24_multicta(A,g,bk):
    a=A['a']; out=[0]*12; tot=[0]*4
    for b in range(4):
        vs=[]
        for t in range(3):
            v=a[b*3+t]
            if b&1:
                for k in range(b): v=v*2+k
            elif b==2: v=-v
            else:
                while v>1: v>>=1
            vs.append(v)
        s=sum(vs); tot[b]=s
        for t in range(3): out[b*3+t]=vs[t]+s*1000+4*100000+3*1000000
    return {'out':out,'tot':tot}
@ref
def k25_partial2(A,g,bk):
    a=A['a']; out=[0]*4; bal=[0]*4
    for b in range(2):
        V={t:a[b*2+t] for t in range(2)}
        for t in range(2):
            # down by 1 width 4: lane1 -> lane2 doesn't exist... in group of 4 (maxLane=3) lane 2 absent -> UB on hw
            pass
        for t in range(2):
            v=V[t]; i=b*2+t
            out[i]=v+V[t^1]*10+(V[t-1] if t>=1 else v)*100
    for b in range(2):
        vs=a[b*2:b*2+2]
        for t in range(2):
            bal[b*2+t]=sum(1<<k for k in range(2) if vs[k]>0)+any(x==0 for x in vs)*16+all(x!=1 for x in vs)*32
    return {'out':out,'bal':bal}
@ref
def k26_gridstride(A,g,bk):
    n=A['n']; a=A['a']; out=[0]*5; hits=[0]*12
    for id_ in range(12):
        i=id_
        while i<n: out[i]=a[i]*a[i]+id_; hits[id_]+=1; i+=12
    return {'out':out,'hits':hits}
@ref
def k27_localarr(A,g,bk):
    out=[]
    for t,x in enumerate(A['a']):
        buf=[(i+1)*(t+2) for i in range(6)]
        k=x%6; buf[k]+=100; buf[(k+3)%6]=buf[k]*2
        s=0
        for v in buf: s=s32(s*3+v)
        out.append(s)
    return {'out':out}
@ref
def k28_i64(A,g,bk):
    o={'lo':[],'hi':[],'cmp':[]}
    for t,(x,y) in enumerate(zip(A['a'],A['b'])):
        p=x*y+(1<<32)*t
        o['lo'].append(u32(p>>7)); o['hi'].append(s32(p>>32)); o['cmp'].append((p<0)*2+(p>4294967296))
    return o
@ref
def k29_misc_intr(A,g,bk):
    o={k:[] for k in 'sad hadd rh ab fs'.split()}
    for t,(x,y) in enumerate(zip(A['a'],A['b'])):
        x=s32(x);y=s32(y)
        o['sad'].append(u32(abs(x-y)+5+abs(u32(x)-u32(y))))
        o['hadd'].append((x+y)>>1); o['rh'].append((x+y+1)>>1)
        o['ab'].append(s32(abs(x)))
        sh=t*5; fl=u32(((u32(y)<<32|u32(x))<<(sh&31))>>32)
        sr=t*9; fr=u32((u32(y)<<32|u32(x))>>(sr&31))
        o['fs'].append(fl^fr)
    return o
@ref
def k30_unsigned_countdown(A,g,bk):
    o={'out':[],'w':[]}
    for n in A['n']:
        acc=0
        for i in range(n-1,-1,-1): acc=u32(acc*7+i)
        o['out'].append(acc); u=u32(n-2)
        o['w'].append(u32(u*3) if u>2 else u32(u+0xfffffff0))
    return o
@ref
def k31_shfl_loop_div(A,g,bk):
    V={t:A['a'][t] for t in range(12)}
    for r in range(3):
        act=[t for t in range(12) if (t>>2)>=r]
        nv=dict(V)
        for t in act: nv[t]=s32(V[t]+shfl(V,t,'up',1,4))
        V=nv
        nv=dict(V)
        for t in act:
            if t>>2==2: nv[t]=V[t]^shfl(V,t,'idx',3,4)
        V=nv
    return {'out':[V[t] if t&1 else -V[t] for t in range(12)]}
@ref
def k32_bool_logic(A,g,bk):
    out=[]
    for x,y in zip(A['a'],A['b']):
        r=(x==0)+((x!=0 and y!=0)<<1)+((x!=0 or y!=0)<<2)+((x==y)<<3)+(((x!=0)^(y!=0))<<4)+((x>y)<<5)+((u32(x)>u32(y))<<6)+((~x)&0x7f)*1000
        out.append(r)
    return {'out':out}
@ref
def k35_const_sdiv(A,g,bk):
    a=A['a']
    return {'d2':[sdiv(x,2) for x in a],'d8':[sdiv(x,8) for x in a],'d7':[sdiv(x,7) for x in a],
            'd1000':[sdiv(x,1000) for x in a],'dm4':[sdiv(x,-4) for x in a],'dm7':[sdiv(x,-7) for x in a],
            'r16':[srem(x,16) for x in a],'r1000':[srem(x,1000) for x in a]}
@ref
def k36_const_udiv(A,g,bk):
    a=[u32(x) for x in A['a']]
    return {'d3':[x//3 for x in a],'d7':[x//7 for x in a],'d10':[x//10 for x in a],'d641':[x//641 for x in a],
            'dbig':[x//0x80000001+x//0xfffffffe for x in a],'r7':[x%7 for x in a],'r1000':[x%1000 for x in a],'d60000':[x//60000 for x in a]}
@ref
def k37_smem_tree(A,g,bk):
    a=A['a']; return {'out':[sum(a)-x for x in a],'mx':[max(a)]}
@ref
def k38_compact(A,g,bk):
    a=A['a']; want=sorted(v*100+i for i,v in enumerate(a) if v>0); n=len(want)
    def chk(got):
        bad={}
        if got['cnt']!=[n]: bad['cnt']=([n],got['cnt'])
        if sorted(got['out'][:n])!=want or any(got['out'][n:]): bad['out']=(want,got['out'])
        return bad
    return {'__check__':chk}
@ref
def k39_char_wrap(A,g,bk):
    out=[];us=[]
    for x in A['a']:
        c=sext(x,8); acc=0
        for i in range(12): c=sext(c+3,8); acc+=c
        out.append(acc)
        h=u32(x*300)&0xffff
        for i in range(5): h=(h*7+40000)&0xffff
        us.append(h)
    return {'out':out,'us':us}
@ref
def k40_bitfield(A,g,bk):
    o={'ue':[],'se':[],'ins':[]}
    for x,p,w in zip(A['a'],A['p'],A['w']):
        x=u32(x); m=(1<<w)-1
        o['ue'].append((x>>p)&m)
        o['se'].append(s32(u32(x<<(32-p-w)))>>(32-w))
        o['ins'].append(u32((x&~(m<<p))|((0xabcd&m)<<p)))
    return o
@ref
def k43_cta_bar_cond(A,g,bk):
    a=A['a']; out=[]
    for t in range(8): out.append(a[t]+sum(range(t)))
    v=a[8:16]; v=[v[t]+v[7-t] for t in range(8)]; s=[x*2 for x in v]
    out+= [s[(t+3)&7] for t in range(8)]
    return {'out':out}
@ref
def k44_vote_after_loop(A,g,bk):
    xs=[];ns=[]
    for t,x in enumerate(A['a']):
        n=0
        while x>0:
            x-=3; n+=1
            if n==2 and t==5: break
        xs.append(x); ns.append(n)
    out=[];bl=[]
    for t in range(8):
        base=t&4
        b=sum(1<<k for k in range(base,base+4) if xs[k]<0)
        out.append(ns[t]+10*popc(b)); bl.append(b)
    return {'out':out,'bl':bl}
@ref
def k45_funnel_clamp(A,g,bk):
    o={k:[] for k in 'lc rc lw rw'.split()}
    for lo,hi,s in zip(A['lo'],A['hi'],A['s']):
        v=(u32(hi)<<32)|u32(lo)
        sc=min(u32(s),32); sw=u32(s)&31
        o['lc'].append(u32((v<<sc)>>32)); o['rc'].append(u32(v>>sc))
        o['lw'].append(u32((v<<sw)>>32)); o['rw'].append(u32(v>>sw))
    return o
@ref
def k46_mulwrap(A,g,bk):
    o={'p':[],'up':[],'neg':[]}
    for x,y in zip(A['a'],A['b']):
        o['p'].append(s32(x*y)); o['up'].append(u32(x*y+7))
        o['neg'].append(s32(u32(-x)^u32(-x if x<0 else x)))
    return o
def sd_c(a,b): return sdiv(a,b)
@ref
def k47_short_arith(A,g,bk):
    o={k:[] for k in 'o1 o2 o3 o4'.split()}
    for x,y in zip(A['a'],A['b']):
        x=sext(x,16); y=sext(y,16)
        o['o1'].append(sext(x*y,16))
        d=sext(sdiv(x,y),16); r=sext(srem(x,y),16)
        o['o2'].append(s32(d+r*100000))
        o['o3'].append(s32(sext(x>>3,16)+((x&0xffff)>>3)*100000))
        o['o4'].append((x<y)+((x&0xffff)<(y&0xffff))*2+max(x,y)*4)
    return o
@ref
def k48_byte_loads(A,g,bk):
    o={k:[] for k in 'o1 o2 o3'.split()}
    for x in A['a']:
        x=s32(x)
        o['o1'].append((x&255)+((x>>8)&255)*1000)
        o['o2'].append(s32(sext(x,8)+sext(x,16)*1000))
        o['o3'].append(((x>>16)&0xffff)-sext(x>>24,8))
    return o
@ref
def k49_pressure(A,g,bk):
    out=[]
    for t,x in enumerate(A['a']):
        S=s32
        v0=S(x*3+1); v1=x^0x55; v2=S(x*x); v3=x-17; v4=S(x<<2); v5=S(x*7-t)
        v6=S(v0+v1); v7=v2^v3; v8=S(v4*v5); v9=S(v0*v2); v10=S(v1-v3); v11=S(v5+t*9)
        v12=S(v6*v7+v8); v13=v9^v10; v14=S(v11*3+v0)
        acc=0
        for i in range(5):
            acc=S(acc+v0*i+v1-v2+v3*(i&1)+v4+v5*i+v6-v7+v8+v9*i+v10+v11+v12*i+v13+v14)
            v0=S(v0*3+v14); v14=v14^v13; v13=S(v13+v12); v12=S(v12-v1); v1=S(v1*5+i)
        r=acc
        for v in (v0,v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11,v12,v13,v14): r^=v
        out.append(s32(r))
    return {'out':out}
@ref
def k50_unroll_rem(A,g,bk):
    a=[];b=[]
    for t,m in enumerate(A['n']):
        s=0;p=1
        for i in range(m): s+=i*i-t; p=p*(i+2)%1009
        a.append(s); b.append(p)
    return {'a':a,'b':b}
@ref
def k51_i64_shift(A,g,bk):
    o={k:[] for k in 'o1 o2 o3 o4'.split()}
    for x,s in zip(A['a'],A['k']):
        x=x*1000003; ux=x&((1<<64)-1)
        o['o1'].append(s32(x>>s)); o['o2'].append(u32(ux>>s))
        sl=sext((x<<s)&((1<<64)-1),64)
        o['o3'].append(s32(sl>>32))
        o['o4'].append((x< -5000000)+(x>=1000003)*2+(ux>10)*4)
    return o
@ref
def k52_shfl64(A,g,bk):
    V={t:A['a'][t]*3000000000 for t in range(8)}
    lo=[];hi=[]
    for t in range(8):
        w=shfl(V,t,'bfly',1,4)+shfl(V,t,'down',2,4)
        w&=(1<<64)-1
        lo.append(u32(w)); hi.append(s32(w>>32))
    return {'lo':lo,'hi':hi}
@ref
def k53_multicta_atom(A,g,bk):
    a=A['a']; G=[0,0,0,0]; cnts=[]
    for b in range(4):
        vs=a[b*4:b*4+4]; ss=sum(vs); sm=max(u32(v) for v in vs)
        G[0]+=ss; G[1]=max(G[1],sm); G[2]=min(G[2],ss); G[3]-=b*b
        cnts.append(sum(1 for v in vs if v>b))
    G[1]=s32(G[1])
    return {'g':G,'cnts':cnts}
@ref
def k54_neg_index(A,g,bk):
    a=A['a']
    return {'out':[a[4-1-t]*2+a[t]+a[4+(t&1)-2] for t in range(4)]}
@ref
def k55_struct_local(A,g,bk):
    out=[0]*6
    for t in range(2):
        x=A['a'][t]
        ps=[[x+i,x*i,i-x] for i in range(3)]
        j=x%3; ps[j],ps[2-j]=ps[2-j],ps[j]
        s=0
        for i in range(3): s=s32(s*31+ps[i][0]-ps[i][1]*ps[i][2])
        out[t*3]=s; out[t*3+1]=ps[j][1]; out[t*3+2]=ps[1][2]
    return {'out':out}
@ref
def k56_vadd_dp4a(A,g,bk):
    va=[];dp=[]
    for x,y in zip(A['a'],A['b']):
        x=u32(x);y=u32(y)
        va.append(sum((((x>>(8*i))+(y>>(8*i)))&0xff)<<(8*i) for i in range(4)))
        dp.append(s32(10+sum(sext(x>>(8*i),8)*sext(y>>(8*i),8) for i in range(4))))
    return {'va':va,'dp':dp}
@ref
def k57_i64_const(A,g,bk):
    o={k:[] for k in 'o1 o2 o3 o4 o5'.split()}
    for t,x in enumerate(A['a']):
        x=x*1000003+t; ux=x&((1<<64)-1)
        o['o1'].append(s32(x>>33)); o['o2'].append(u32(ux>>40))
        o['o3'].append(s32(sext((x<<7)&((1<<64)-1),64)>>32))
        o['o4'].append((x< -5000000)+(x>=1000003)*2+(ux>10)*4+(x==-1000003)*8)
        y=x-0x123456789
        o['o5'].append(s32(u32(y>>32)^u32(y)))
    return o
@ref
def k58_ifconv(A,g,bk):
    b=list(A['b']); out=[]; c=0
    for t,x in enumerate(A['a']):
        if x>3: r=x*2; b[t]=-b[t]
        elif x< -5: r=-x; c+=1
        else: r=x+100
        if t&1: r^=0xff
        if r>100 and (t&2): r-=1000
        out.append(r)
    return {'b':b,'out':out,'c':[c]}
@ref
def k59_u64_accum(A,g,bk):
    lo=[];hi=[]
    a=A['a']
    for t in range(4):
        s=0
        for i in range(t+3): s+=a[(t+i)&3]*(i+1)
        s=(s-5)&((1<<64)-1); lo.append(u32(s)); hi.append(u32(s>>32))
    return {'lo':lo,'hi':hi}
@ref
def k60_sign_idioms(A,g,bk):
    out=[];o2=[]
    for x in A['a']:
        sgn=(x>0)-(x<0); m=-1 if x<0 else 0
        ab=s32((x^m)-m)
        out.append(s32(sgn*7+(ab&0xffff)+(u32(x)>>31)*1000000))
        o2.append(s32(max(x,s32(-x))+min(x,~x)+(3 if x==-2**31 else 0)))
    return {'out':out,'o2':o2}
@ref
def k61_redux_match(A,g,bk):
    a=A['a']
    return {'r':[0]*4,'m':[sum(1<<k for k in range(4) if a[k]==a[t]) for t in range(4)]}
@ref
def k62_lanemask_asm(A,g,bk):
    a=A['a']; b=sum(1<<k for k in range(16) if a[k])
    return {'pos':[popc(b&((1<<t)-1)) if a[t] else -1 for t in range(16)],
            'ln':[t*100+((t&~3)|2) for t in range(16)]}
@ref
def k63_shfl_partial_mask(A,g,bk):
    a=A['a']; out=[0]*4
    for t in range(4):
        if t%2==0: out[t]=a[t]+a[t^2]
        else: out[t]=a[t]-a[3-(t&2)]
    return {'out':out}
@ref
def k64_atom_incdec(A,g,bk):
    w=list(A['w']); r=[0]*8
    def inc(i,v):
        o=w[i]; w[i]=0 if o>=v else o+1; return o
    def dec(i,v):
        o=w[i]; w[i]=v if (o==0 or o>v) else o-1; return o
    def cas(i,c,v):
        o=w[i]; w[i]=v if o==c else o; return o
    r[0]=inc(0,3); r[1]=dec(1,3); r[2]=dec(2,0); r[3]=inc(3,0)
    r[4]=inc(0,0xffffffff); r[5]=dec(1,0); r[6]=cas(2,0,77); r[7]=cas(3,1,88)
    return {'w':w,'r':r}
@ref
def k65_div_zero(A,g,bk):
    # by zero: unsigned x/0 = 0xffffffff, x%0 = x; signed x/0 = -1, x%0 = x (sdiv/srem above),
    # as docs/machine.md states the rule; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0
    a=A['a']; b=A['b']
    uq=[M if u32(y)==0 else u32(x)//u32(y) for x,y in zip(a,b)]
    ur=[u32(x) if u32(y)==0 else u32(x)%u32(y) for x,y in zip(a,b)]
    return {'q':[sdiv(x,y) for x,y in zip(a,b)],'r':[srem(x,y) for x,y in zip(a,b)],'uq':uq,'ur':ur}
