/* nbrcomb: message-combining MPI neighborhood collectives.
 *
 * The library works without any call to this header: an application picks it up with
 * LD_PRELOAD or by linking -lnbrcomb before the MPI library. This header adds introspection
 * for programs that want to read what the library did on one communicator. */
#ifndef NBRCOMB_NBRCOMB_H
#define NBRCOMB_NBRCOMB_H

#include <mpi.h>

#include <stddef.h>

#include "nbrcomb/nbrcomb_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as "MAJOR.MINOR.PATCH" (of the loaded library, not of this header). */
const char *nbrcomb_version(void);

/* How a topology communicator's collectives are run. */
typedef enum nbrcomb_mode {
    NBRCOMB_MODE_OFF = 0, /* native MPI */
    NBRCOMB_MODE_DIRECT,  /* the library's own schedule, one message per edge */
    NBRCOMB_MODE_PAIRS,   /* message combining with pairs of friends */
    NBRCOMB_MODE_GROUPS,  /* message combining with groups of k friends */
    NBRCOMB_MODE_AUTO,    /* the library chooses, per call shape, between native MPI and combining */
    NBRCOMB_MODE_AGGREGATE, /* node-aware aggregation: one message per pair of nodes and direction */
    NBRCOMB_MODE_DIMWISE,   /* dimension-wise combining on the grid of a stencil's ranks */
    NBRCOMB_MODE_FORWARD,   /* store-and-forward over a virtual grid of the processes */
    NBRCOMB_MODE_GLOBAL     /* a complete graph's calls as the MPI's own collective over all processes */
} nbrcomb_mode;

/* The mode's name as NBRCOMB_MODE takes it ("auto", "off", "pairs", ...), or NULL for no mode. */
const char *nbrcomb_mode_name(nbrcomb_mode mode);

/* Sets *mode to the mode named name (any case, as NBRCOMB_MODE takes it). Returns MPI_SUCCESS,
 * or MPI_ERR_ARG where name is no mode. */
int nbrcomb_mode_from_name(const char *name, nbrcomb_mode *mode);

/* Counters of one process on one communicator, since its creation or the last reset. Fields are
 * only ever added at the end: nbrcomb_comm_stats fills as many as the caller's struct holds. */
typedef struct nbrcomb_stats {
    nbrcomb_mode requested_mode;        /* mode asked for (environment or MPI_Info hint) */
    nbrcomb_mode mode;                  /* mode the schedules actually use */
    unsigned long long calls;           /* neighborhood collectives run by the library's schedules */
    unsigned long long messages_sent;   /* point-to-point messages this process sent */
    unsigned long long bytes_sent;      /* payload bytes of those messages */
    unsigned long long native_messages; /* messages native MPI sends for the same calls (one per out-edge) */
    unsigned long long native_bytes;    /* payload bytes native MPI sends for the same calls */
    unsigned long long rounds;          /* schedule rounds executed */
    double pattern_seconds;             /* Phase 1: time spent building the pattern (at topology creation,
                                           or in auto mode at the NBRCOMB_LAZY-th call), from its
                                           first step: the library's communicator, finding nodes */
    unsigned long long pattern_messages;  /* Phase 1: messages this process sent */
    unsigned long long pattern_exchanges; /* Phase 1: communication steps (each waits for its peers) */
    unsigned long long pattern_hyperedges; /* Phase 1: candidate groups this process had at the start
                                              (friends, in pairs mode), after the cap */
    unsigned long long pattern_hyperedges_dropped; /* Phase 1: candidate groups the cap
                                                      (NBRCOMB_MAX_HYPEREDGES) discarded */
    unsigned long long schedules_built; /* Phase 2: schedules built (a call whose arguments repeat
                                           one of the last 8 reuses its schedule) */
    double schedule_seconds;            /* Phase 2: time spent building them */
    /* Rank reordering (reorder=1 with NBRCOMB_REORDER on; all 0 otherwise). Edges are this
       process's out-edges, weighted by the graph's weights (1 each when unweighted). */
    double reorder_seconds;                    /* time the constructor spent choosing ranks and building
                                                  the communicator on them */
    unsigned long long edge_cut_before;        /* weight of the out-edges between nodes with the old ranks */
    unsigned long long edge_cut_after;         /* the same with the ranks of this communicator */
    unsigned long long internode_bytes_before; /* bytes native MPI sends between nodes for the calls, with
                                                  the old ranks */
    unsigned long long internode_bytes_after;  /* the same with the ranks of this communicator */
    int reorder_tried;                         /* 1: the library was asked to reorder this communicator */
    int reordered;                             /* 1: its ranks are new (0: no mapping had less weight between
                                                  nodes, or the graph was too large to gather) */
    unsigned long long native_calls;         /* calls left to the MPI's own collective (auto mode: before
                                                Phase 1, or where the trial chose native) */
    unsigned long long native_call_messages; /* messages the MPI sent for them (one per out-edge) */
    unsigned long long auto_combined; /* auto mode: call shapes (collective, form, block size class) whose
                                         trial chose combining */
    unsigned long long auto_native;   /* auto mode: call shapes whose trial chose native MPI */
    /* Between nodes (real, or emulated with NBRCOMB_NODE_SIZE), for the calls the library ran; all 0
       in modes that never ask where processes run (off, and auto before its Phase 1). */
    unsigned long long internode_messages;        /* messages this process sent to other nodes */
    unsigned long long internode_bytes;           /* their payload bytes (headers of sized packets included) */
    unsigned long long native_internode_messages; /* messages native MPI sends to other nodes for the same calls */
    unsigned long long native_internode_bytes;    /* their payload bytes */
    /* Calls run as the MPI's own collective over all processes (complete graphs, NBRCOMB_MODE_GLOBAL):
       their messages are the MPI's, so neither they nor native MPI's for the same calls are counted
       in messages_sent, bytes_sent, native_messages and native_bytes. */
    unsigned long long global_calls;
    /* Calls whose send or receive buffer is device (GPU) memory, which the library leaves to the
       MPI's own collective (a GPU-aware MPI moves such buffers itself); also counted in native_calls. */
    unsigned long long device_calls;
    /* Auto mode: call shapes decided by each tier (combined or native; see README "How auto mode
       decides"), named as the report and the log name them: forced by NBRCOMB_FORCE, by the rules
       of a rules file (NBRCOMB_RULES), by a trial, by the estimate (no candidate could beat native
       at the shape's block size, so no trial ran). Each is also readable by its earlier name. */
    unsigned long long auto_forced;
    union { unsigned long long auto_rules; unsigned long long auto_learned; };
    union { unsigned long long auto_trial; unsigned long long auto_measured; };
    union { unsigned long long auto_estimate; unsigned long long auto_estimated; };
    unsigned long long trial_calls; /* auto mode: calls run as part of a trial (either way) */
} nbrcomb_stats;

/* Fills the first size bytes of *stats for comm: size is the caller's sizeof(nbrcomb_stats), so
 * that a program built with an older header gets its fields and a newer one gets zeros in the
 * fields this library does not know. Returns MPI_SUCCESS, MPI_ERR_COMM when the library does not
 * manage comm (not a distributed-graph communicator, or mode off), or MPI_ERR_ARG for a null stats
 * or a size that ends inside a field. */
int nbrcomb_comm_stats_sized(MPI_Comm comm, nbrcomb_stats *stats, size_t size);

/* nbrcomb_comm_stats(comm, &stats) with the size of the header's struct. (The library also
 * exports nbrcomb_comm_stats as a function, for programs built with version 0.2's header, which
 * had no size: it fills 0.2's fields, up to auto_native.) */
#define nbrcomb_comm_stats(comm, stats) nbrcomb_comm_stats_sized((comm), (stats), sizeof *(stats))

/* Sets the per-call counters of comm back to zero (the modes and Phase 1 figures are kept). */
int nbrcomb_comm_reset_stats(MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* NBRCOMB_NBRCOMB_H */
