// A C++ program using libblvl the way an engine would: the public headers compiled as C++, a sim
// section built from the sample JSON, verified, and read through the generated accessors; a
// .bsym built with the generated builders (file identifier and all) and verified.
// Built and run by tests/test_headers_cxx.sh. Exit 0 when every check holds.
#include <blvl/fb.h>
#include <blvl/sections.h>
#include <blvl/sections_builder.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

static int failures = 0;
#define EXPECT(c)                                                                                  \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            std::fprintf(stderr, "smoke.cpp:%d: %s\n", __LINE__, #c);                              \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void sim(const char *path) {
    std::ifstream in(path, std::ios::binary);
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT(!json.empty());
    void *buf = nullptr;
    size_t size = 0;
    blvl_error err;
    EXPECT(blvl_section_from_json(&buf, &size, "sim", json.data(), json.size(), nullptr, &err) ==
           BLVL_OK);
    if (!buf)
        return;
    EXPECT(blvl_Sim_verify(buf, size, &err) == BLVL_OK);
    blvl_Sim s = blvl_Sim_root(buf);
    EXPECT(blvl_Sim_colliders_len(s) == 12);
    blvl_Vec3 lo = blvl_Collider_lo(blvl_Sim_colliders_at(s, 0));
    EXPECT(lo.x == -512.0f && lo.y == -16.0f && lo.z == -512.0f);
    EXPECT(blvl_Sim_kill_y(s) == -2048.0f);
    EXPECT(blvl_Sim_breakables_len(s) == 7);
    blvl_Breakable window = blvl_Sim_breakables_at(s, 0);
    blvl_fb_str name = blvl_Breakable_name(window);
    EXPECT(std::string(name.ptr, name.len) == "window");
    EXPECT(blvl_Breakable_kind(window) == blvl_BreakableKind_Glass);
    // The sample's last breakable says "Other": the default, so not stored, and read as Other.
    blvl_Breakable last = blvl_Sim_breakables_at(s, 6);
    EXPECT(!blvl_Breakable_kind_present(last));
    EXPECT(blvl_Breakable_kind(last) == blvl_BreakableKind_Other);
    blvl_free(nullptr, buf);
}

static void bsym(size_t level_len) {
    blvl_fb_builder *b = nullptr;
    blvl_error err;
    EXPECT(blvl_fb_builder_new(&b, nullptr, &err) == BLVL_OK);
    uint8_t id[17] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    blvl_fb_ref level = blvl_Symbols_level_create(b, id, level_len);
    blvl_Symbols_start(b);
    blvl_Symbols_add_level(b, level);
    blvl_Symbols_add_version(b, 1);
    blvl_fb_ref root = blvl_Symbols_end(b);
    const uint8_t *data = nullptr;
    size_t size = 0;
    EXPECT(blvl_Symbols_finish(b, root, &data, &size, &err) == BLVL_OK);
    EXPECT(size >= 8 && std::memcmp(data + 4, blvl_Symbols_file_identifier, 4) == 0);
    blvl_status st = blvl_Symbols_verify(data, size, &err);
    if (level_len == 16) {
        EXPECT(st == BLVL_OK);
        EXPECT(blvl_Symbols_level_len(blvl_Symbols_root(data)) == 16);
    } else {
        EXPECT(st == BLVL_E_FLATBUFFER);
        EXPECT(std::strstr(err.message, "Symbols.level") != nullptr);
    }
    blvl_fb_builder_free(b);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: smoke tests/data/sections/sim.json\n");
        return 2;
    }
    sim(argv[1]);
    bsym(16);
    bsym(15);
    bsym(17);
    if (failures == 0)
        std::printf("C++ smoke: ok\n");
    return failures ? 1 : 0;
}
