/* SimGrid platform plugin for smpirun: a cluster of multi-core nodes calibrated on TACC Stampede.
 *
 *   smpirun -platform libnbr_cluster.so -hostfile hosts ...
 *
 * Geometry (environment, read when the platform is loaded):
 *   NBR_SMPI_NODES   number of nodes (default 64)
 *   NBR_SMPI_CORES   cores per node  (default 16, as on Stampede)
 *   NBR_SMPI_FATPIPE 1: the NICs do not share their bandwidth among flows (FATPIPE), so that flows
 *                    never couple in SimGrid's max-min solver: much faster with many messages in
 *                    flight, but a node's ranks no longer compete for its NIC (default 0)
 * Hosts are named node-0 ... node-(NODES-1); every host has CORES cores and runs up to CORES ranks
 * (hostfile lines "node-i:CORES").
 *
 * Network: a non-blocking crossbar (SimGrid star zone).  Every node has one split-duplex NIC link to
 * the crossbar, shared by all its ranks; its capacity is the best rate a single transfer reached over
 * InfiniBand on Stampede.  Two ranks of one node talk over the node's loopback link (shared memory,
 * FATPIPE: no contention between intra-node flows).
 *
 * Costs: instead of one global set of smpi/os, smpi/or, smpi/ois, smpi/lat-factor and smpi/bw-factor,
 * this plugin registers SimGrid 3.32 callbacks that pick the inter-node (InfiniBand) or the intra-node
 * (shared memory) pieces fitted by calibration/fit_stampede.py from the published Stampede
 * measurements (see bench/smpi/README.md):
 *   per message: os(s) on MPI_Send, ois(s) on MPI_Isend, or(s) on each receive completion,
 *   wire:        lat(s) + s / bw(s), applied as latency and bandwidth factors on the nominal links.
 */
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Piece {
  double min_size;
  double os_a, os_b, ois_a, ois_b, or_a, or_b, lat, inv_bw;
};

#include "../calibration/stampede_model.h"

// Nominal link parameters; the callbacks scale them to the fitted values.
constexpr double kNicLatency      = 0.5e-6; // per NIC link: an inter-node route crosses two (1 us nominal)
constexpr double kLoopbackLatency = 1e-6;   // the intra-node route is one loopback link
// SMPI 3.32 hands the network model the payload plus 16 bytes (checked by logging the size the factor
// callbacks receive for a 100-byte MPI_Send: 116), while the cost callbacks get the payload itself.
constexpr double kSmpiEnvelope = 16;

template <std::size_t N> const Piece& piece(const Piece (&table)[N], double size)
{
  std::size_t i = 0;
  while (i + 1 < N && size >= table[i + 1].min_size)
    i++;
  return table[i];
}

const Piece& piece_for(double size, const sg4::Host* src, const sg4::Host* dst)
{
  return src == dst ? piece(kIntra, size) : piece(kInter, size);
}

std::string exact(double v)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void set_default(const std::string& name, const std::string& value)
{
  if (simgrid::config::is_default(name.c_str()))
    sg4::Engine::set_config(name + ":" + value);
}

long env_or(const char* name, long fallback)
{
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? std::strtol(v, nullptr, 10) : fallback;
}

} // namespace

extern "C" void load_platform(const sg4::Engine& e);

void load_platform(const sg4::Engine& e)
{
  const long nodes = env_or("NBR_SMPI_NODES", 64);
  const long cores = env_or("NBR_SMPI_CORES", 16);
  xbt_assert(nodes > 0 && cores > 0, "NBR_SMPI_NODES and NBR_SMPI_CORES must be positive");
  const bool fatpipe_nics = env_or("NBR_SMPI_FATPIPE", 0) != 0;

  // Defaults that the command line (--cfg=...) can still override:
  //  - MVAPICH2's eager limit over InfiniBand: larger MPI_Send calls wait for the receiver;
  //  - the measured cost of one MPI_Test / MPI_Iprobe call, constant (SimGrid's default is 100 us,
  //    growing with every unsuccessful call).
  set_default("smpi/async-small-thresh", std::to_string(kInterEager));
  set_default("smpi/send-is-detached-thresh", std::to_string(kInterEager));
  set_default("smpi/test", exact(kInterTest));
  set_default("smpi/iprobe", exact(kInterIprobe));
  set_default("smpi/grow-injected-times", "no");
  //  - no cross-traffic: SimGrid's default makes every flow load the reverse path by 5 % to mimic
  //    TCP acknowledgments; InfiniBand has no such traffic, and the coupling makes the simulation of
  //    many concurrent messages 2 to 3 times slower.
  set_default("network/crosstraffic", "0");

  auto* zone = sg4::create_star_zone("cluster");
  for (long i = 0; i < nodes; i++) {
    const std::string name = "node-" + std::to_string(i);
    const sg4::Host* host  = zone->create_host(name, 1e9)->set_core_count(static_cast<int>(cores))->seal();
    auto* nic = zone->create_split_duplex_link("nic-" + name, kInterPeakBw)->set_latency(kNicLatency);
    if (fatpipe_nics)
      nic->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    nic->seal();
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(nic, sg4::LinkInRoute::Direction::UP)}, true);
    auto* loopback = zone->create_link("shm-" + name, kIntraPeakBw)
                         ->set_latency(kLoopbackLatency)
                         ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                         ->seal();
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(loopback)},
                    false);
  }
  zone->seal();

  auto* model = e.get_netzone_root()->get_network_model();
  model->set_lat_factor_cb([](double size, const sg4::Host* src, const sg4::Host* dst,
                              const std::vector<sg4::Link*>&, const std::unordered_set<sg4::NetZone*>&) {
    const double nominal = src == dst ? kLoopbackLatency : 2 * kNicLatency;
    return piece_for(std::max(0.0, size - kSmpiEnvelope), src, dst).lat / nominal;
  });
  model->set_bw_factor_cb([](double size, const sg4::Host* src, const sg4::Host* dst,
                             const std::vector<sg4::Link*>&, const std::unordered_set<sg4::NetZone*>&) {
    const double nominal = src == dst ? kIntraPeakBw : kInterPeakBw;
    const double inv_bw  = piece_for(std::max(0.0, size - kSmpiEnvelope), src, dst).inv_bw;
    return inv_bw > 0 ? std::min(1.0, 1.0 / (inv_bw * nominal)) : 1.0;
  });
  smpi_register_op_cost_callback(SmpiOperation::SEND, [](size_t size, sg4::Host* src, sg4::Host* dst) {
    const Piece& p = piece_for(static_cast<double>(size), src, dst);
    return std::max(0.0, p.os_a + p.os_b * static_cast<double>(size));
  });
  smpi_register_op_cost_callback(SmpiOperation::ISEND, [](size_t size, sg4::Host* src, sg4::Host* dst) {
    const Piece& p = piece_for(static_cast<double>(size), src, dst);
    return std::max(0.0, p.ois_a + p.ois_b * static_cast<double>(size));
  });
  smpi_register_op_cost_callback(SmpiOperation::RECV, [](size_t size, sg4::Host* src, sg4::Host* dst) {
    const Piece& p = piece_for(static_cast<double>(size), src, dst);
    return std::max(0.0, p.or_a + p.or_b * static_cast<double>(size));
  });
}
