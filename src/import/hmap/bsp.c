/* The BSP of CMPL: every index in range, then the links walked from the root without recursion
 * (a hostile tree may be a million nodes deep): every node and leaf must be reached exactly
 * once (no cycle, no shared child, nothing unreachable), and the stored depth must be the
 * tree's: the most nodes on a path from the root to a leaf (a lone leaf: 0). */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

/* Where each part of the BSP starts in the file, from the root field's offset. */
typedef struct bsp_at {
    uint64_t root, depth, nodes, leaves, leaf_brushes;
} bsp_at;

static bsp_at layout(const blvl_hmap_bsp *t, uint64_t at) {
    bsp_at o;
    o.root = at;
    o.depth = at + 4;
    o.nodes = at + 36 + 16ull * t->plane_count + 4;
    o.leaves = o.nodes + (uint64_t)HM_NODE_SIZE * t->node_count + 4;
    o.leaf_brushes = o.leaves + (uint64_t)HM_LEAF_SIZE * t->leaf_count + 4;
    return o;
}

/* A link in range: >= 0 a node, < 0 leaf ~link. */
static bool link_ok(const blvl_hmap_bsp *t, int32_t link) {
    if (link >= 0)
        return (uint32_t)link < t->node_count;
    return (uint32_t)(-(int64_t)link - 1) < t->leaf_count;
}

static blvl_status link_fail(blvl__cursor *c, const char *leaf, uint64_t at, const char *rule,
                             const blvl_hmap_bsp *t, int32_t link) {
    if (link >= 0)
        return blvl__cursor_fail(c, leaf, at, rule, "node %d is past the %u nodes", link,
                                 t->node_count);
    return blvl__cursor_fail(c, leaf, at, rule, "leaf %lld (link %d) is past the %u leaves",
                             (long long)(-(int64_t)link - 1), link, t->leaf_count);
}

static blvl_status check_ranges(blvl__cursor *c, const blvl_hmap_bsp *t, const bsp_at *o) {
    if (!link_ok(t, t->root))
        return link_fail(c, "root", o->root, "bsp-root", t, t->root);
    for (uint32_t k = 0; k < t->node_count; k++) {
        const blvl_hmap_node *n = &t->nodes[k];
        uint64_t at = o->nodes + (uint64_t)HM_NODE_SIZE * k;
        blvl_status st = BLVL_OK;
        blvl__cursor_enter(c, "node", k);
        if (n->plane < 0 || (uint32_t)n->plane >= t->plane_count)
            st = blvl__cursor_fail(c, "plane", at, "bsp-plane", "%d is outside the %u planes",
                                   n->plane, t->plane_count);
        else if (!link_ok(t, n->front))
            st = link_fail(c, "front", at + 4, "bsp-child", t, n->front);
        else if (!link_ok(t, n->back))
            st = link_fail(c, "back", at + 8, "bsp-child", t, n->back);
        blvl__cursor_leave(c);
        if (st)
            return st;
    }
    for (uint32_t k = 0; k < t->leaf_count; k++) {
        const blvl_hmap_leaf *l = &t->leaves[k];
        if ((uint64_t)l->first_brush + l->brush_count > t->leaf_brush_count) {
            blvl__cursor_enter(c, "leaf", k);
            blvl_status st =
                blvl__cursor_fail(c, NULL, o->leaves + (uint64_t)HM_LEAF_SIZE * k, "bsp-leaf-range",
                                  "leaf brushes %u + %u run past the %u leaf brushes",
                                  l->first_brush, l->brush_count, t->leaf_brush_count);
            blvl__cursor_leave(c);
            return st;
        }
    }
    for (uint32_t k = 0; k < t->leaf_brush_count; k++)
        if (t->leaf_brushes[k] >= t->brush_count) {
            blvl__cursor_enter(c, "leafBrush", k);
            blvl_status st =
                blvl__cursor_fail(c, NULL, o->leaf_brushes + 4ull * k, "bsp-leaf-brush",
                                  "%u is past the %u brushes", t->leaf_brushes[k], t->brush_count);
            blvl__cursor_leave(c);
            return st;
        }
    return BLVL_OK;
}

typedef struct visit {
    int32_t link;
    uint32_t depth; /* nodes above it */
    uint32_t from;  /* the node whose child it is (unused for the root) */
    uint8_t side;   /* 0 root, 1 front, 2 back */
} visit;

static blvl_status walk(blvl__cursor *c, const blvl_hmap_bsp *t, const bsp_at *o, uint8_t *seen,
                        visit *stack, uint32_t *depth) {
    size_t top = 0;
    stack[top++] = (visit){t->root, 0, 0, 0};
    uint8_t *leaf_seen = seen + t->node_count;
    *depth = 0;
    while (top) {
        visit v = stack[--top];
        uint8_t *mark;
        if (v.link >= 0)
            mark = &seen[v.link];
        else
            mark = &leaf_seen[-(int64_t)v.link - 1];
        if (*mark) {
            /* only a child link can reach something a second time: the root is first */
            blvl__cursor_enter(c, "node", v.from);
            blvl_status st = blvl__cursor_fail(
                c, v.side == 1 ? "front" : "back",
                o->nodes + (uint64_t)HM_NODE_SIZE * v.from + (v.side == 1 ? 4 : 8), "bsp-tree",
                v.link >= 0 ? "node %lld is reached a second time (a cycle or a shared child)"
                            : "leaf %lld is reached a second time (a shared leaf)",
                v.link >= 0 ? (long long)v.link : (long long)(-(int64_t)v.link - 1));
            blvl__cursor_leave(c);
            return st;
        }
        *mark = 1;
        if (v.link < 0) {
            if (v.depth > *depth)
                *depth = v.depth;
            continue;
        }
        const blvl_hmap_node *n = &t->nodes[v.link];
        /* back first onto the stack, so the front subtree is walked first */
        stack[top++] = (visit){n->back, v.depth + 1, (uint32_t)v.link, 2};
        stack[top++] = (visit){n->front, v.depth + 1, (uint32_t)v.link, 1};
    }
    for (uint32_t k = 0; k < t->node_count; k++)
        if (!seen[k]) {
            blvl__cursor_enter(c, "node", k);
            blvl_status st =
                blvl__cursor_fail(c, NULL, o->nodes + (uint64_t)HM_NODE_SIZE * k, "bsp-tree",
                                  "node %u is not reached from the root", k);
            blvl__cursor_leave(c);
            return st;
        }
    for (uint32_t k = 0; k < t->leaf_count; k++)
        if (!leaf_seen[k]) {
            blvl__cursor_enter(c, "leaf", k);
            blvl_status st =
                blvl__cursor_fail(c, NULL, o->leaves + (uint64_t)HM_LEAF_SIZE * k, "bsp-tree",
                                  "leaf %u is not reached from the root", k);
            blvl__cursor_leave(c);
            return st;
        }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_check_bsp(blvl__cursor *c, const blvl_hmap_bsp *t, uint64_t at) {
    bsp_at o = layout(t, at);
    blvl_status st = check_ranges(c, t, &o);
    if (st)
        return st;
    /* Each node is expanded at most once (a second arrival is refused before it is expanded),
     * so the stack holds at most 1 + 2 * nodes entries. */
    size_t seen_size = (size_t)t->node_count + t->leaf_count;
    size_t stack_n = 1 + 2 * (size_t)t->node_count;
    uint8_t *seen = blvl__calloc(c->a, seen_size);
    visit *stack = blvl__calloc_n(c->a, stack_n, sizeof *stack);
    uint32_t depth = 0;
    if (!seen || !stack)
        st = blvl__nomem(c->err, "the BSP walk");
    else
        st = walk(c, t, &o, seen, stack, &depth);
    blvl__dealloc(c->a, seen, seen_size);
    blvl__dealloc(c->a, stack, stack_n * sizeof *stack);
    if (st)
        return st;
    if (depth != t->depth)
        return blvl__cursor_fail(c, "depth", o.depth, "bsp-depth", "%u, but the tree's depth is %u",
                                 t->depth, depth);
    return BLVL_OK;
}
