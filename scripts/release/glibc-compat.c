// Linked into the release binary only (scripts/release.sh), so that it runs on glibc 2.34 rather
// than on the glibc 2.36 of the build machine. Each definition here takes the place of a glibc
// symbol that got a newer version than 2.34 and that the static Swift and C++ runtimes ask for;
// the linker then binds their calls here instead of to the new version.
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>

// glibc 2.35 gave hypot and hypotf new versions (a faster, exact implementation); Foundation's
// CGFloat and the Glibc overlay call them. The 2.2.5 versions compute the same function.
__asm__(".symver bundlepress_hypot_2_2_5, hypot@GLIBC_2.2.5");
__asm__(".symver bundlepress_hypotf_2_2_5, hypotf@GLIBC_2.2.5");
double bundlepress_hypot_2_2_5(double x, double y);
float bundlepress_hypotf_2_2_5(float x, float y);

double hypot(double x, double y) { return bundlepress_hypot_2_2_5(x, y); }
float hypotf(float x, float y) { return bundlepress_hypotf_2_2_5(x, y); }

// arc4random is new in glibc 2.36; static libstdc++ (std::random_device, which nothing in
// BundlePress uses) refers to it. getrandom(2) (glibc 2.25) gives the same kernel randomness.
uint32_t arc4random(void) {
    uint32_t value;
    size_t filled = 0;
    while (filled < sizeof value) {
        ssize_t got = getrandom((char *)&value + filled, sizeof value - filled, 0);
        if (got > 0) filled += (size_t)got;
    }
    return value;
}
