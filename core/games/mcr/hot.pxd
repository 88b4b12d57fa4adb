# C declarations of mcr_hot.py's module-level tables (filled from mcr_fans at import); with this
# file beside it Cython compiles them as C arrays, run as plain Python they are lists.
cdef int _POINTS[82]
cdef int _EXCL_START[83]
cdef int _EXCL[512]
cdef int _SET_FAN[16]
cdef unsigned long long _SET_MASK[16]
cdef int _TRAIT_FAN[8]
cdef int _TRAIT_SETS[8]
cdef int _TRAIT_PAIR[8]
cdef int _KONG_FAN[50]
cdef int _CONCEALED_PUNG_FAN[5]
cdef int _KNIT[54]
