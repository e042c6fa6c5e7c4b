/* The program each layer is linked into with only the layers it may use (CMakeLists.txt,
 * blvl_layer): its objects are linked whole, so any call past those layers is an unresolved
 * symbol and the build fails. */
int main(void) {
    return 0;
}
