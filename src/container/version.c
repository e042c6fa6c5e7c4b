/* The library's own version, for a program to compare with the headers it was built with. */
#include "blvl/version.h"

unsigned blvl_version_number(void) {
    return BLVL_VERSION_NUMBER;
}

const char *blvl_version_string(void) {
    return BLVL_VERSION_STRING;
}
