// Per-thread lower_bound and upper_bound binary searches over a sorted
// array of 16 ints (data-dependent while loops), plus the count of equal
// elements. 16 threads.
// qgpu: --grid 1 --block 16 n=16
// qgpu: arr=-50,-10,-10,0,1,3,3,3,7,8,20,21,21,40,99,1000
// qgpu: keys=-100,-10,0,2,3,4,7,21,22,40,99,1000,1001,8,-11,1
// qgpu: lb=zeros:16 ub=zeros:16 cnt=zeros:16
__global__ void binsearch16(const int* arr, const int* keys, int* lb, int* ub,
                            int* cnt, int n) {
    int t = threadIdx.x;
    int k = keys[t];
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (arr[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    int l = lo;
    lo = 0;
    hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (arr[mid] <= k) lo = mid + 1;
        else hi = mid;
    }
    lb[t] = l;
    ub[t] = lo;
    cnt[t] = lo - l;
}
