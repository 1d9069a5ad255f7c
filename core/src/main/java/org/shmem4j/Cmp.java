package org.shmem4j;

/**
 * Comparison operators of the point-to-point synchronization routines ({@code SHMEM_CMP_*}).
 * The Java carriers are signed; for C's unsigned types (uint, ulong, uint64, size, signals) the
 * ordering comparisons must be unsigned, so they have their own constants {@link #UGT},
 * {@link #UGE}, {@link #ULT}, {@link #ULE} (a Java extension: C chooses by the type instead).
 */
public enum Cmp {
    /** {@code SHMEM_CMP_EQ}. */
    EQ,
    /** {@code SHMEM_CMP_NE}. */
    NE,
    /** {@code SHMEM_CMP_GT} (signed). */
    GT,
    /** {@code SHMEM_CMP_GE} (signed). */
    GE,
    /** {@code SHMEM_CMP_LT} (signed). */
    LT,
    /** {@code SHMEM_CMP_LE} (signed). */
    LE,
    /** {@code SHMEM_CMP_GT} on unsigned values. */
    UGT,
    /** {@code SHMEM_CMP_GE} on unsigned values. */
    UGE,
    /** {@code SHMEM_CMP_LT} on unsigned values. */
    ULT,
    /** {@code SHMEM_CMP_LE} on unsigned values. */
    ULE;

    /** {@code a <cmp> b} for 64-bit values (also used for narrower ones, widened by their signedness). */
    public boolean test(long a, long b) {
        return switch (this) {
            case EQ -> a == b;
            case NE -> a != b;
            case GT -> a > b;
            case GE -> a >= b;
            case LT -> a < b;
            case LE -> a <= b;
            case UGT -> Long.compareUnsigned(a, b) > 0;
            case UGE -> Long.compareUnsigned(a, b) >= 0;
            case ULT -> Long.compareUnsigned(a, b) < 0;
            case ULE -> Long.compareUnsigned(a, b) <= 0;
        };
    }

    /** {@code a <cmp> b} for 32-bit values. */
    public boolean test(int a, int b) {
        return switch (this) {
            case UGT, UGE, ULT, ULE -> test(Integer.toUnsignedLong(a), Integer.toUnsignedLong(b));
            default -> test((long) a, (long) b);
        };
    }
}
