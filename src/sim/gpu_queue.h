/* The simulated GPU runs accepted submissions after the CS ioctl has returned, in the order
 * they were accepted, as a card's rings do: the kernel checks a command stream inside the
 * ioctl and returns once it is queued, and a program learns that the work is done only
 * through the buffer-object waits (GEM_WAIT_IDLE, GEM_BUSY). Each accepted submission gets a
 * sequence number; a buffer object remembers the last sequence that used it, and it is idle
 * once the queue has completed that sequence.
 *
 * One worker thread runs the work. TERAKAN_SIM_SYNC=1 runs it inside the ioctl instead (the
 * simulator's behaviour before asynchronous execution; useful when reading traces). */
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <pthread.h>

namespace terakan::sim {

class GpuQueue {
public:
   using Work = std::function<void()>;

   explicit GpuQueue(bool synchronous) : synchronous_(synchronous) {}
   /* Finishes the queued work before the process goes on to destroy what it uses. */
   ~GpuQueue();
   GpuQueue(const GpuQueue &) = delete;
   GpuQueue &operator=(const GpuQueue &) = delete;

   /* Queues `work` and returns its sequence number (1, 2, ...). `after_queued` runs under the
    * queue's lock before the worker can run the work, so that what waits for the sequence
    * (buffer-object marks) is in place first. */
   uint64_t submit(Work work, const std::function<void(uint64_t)> &after_queued);
   /* Blocks until every submission up to `sequence` has run. */
   void wait_for(uint64_t sequence);
   bool has_completed(uint64_t sequence);
   void wait_for_all();
   bool synchronous() const { return synchronous_; }

   /* fork(): the child has no worker thread. Before the fork the parent finishes its queue
    * (the child shares the GPU memory file, so neither may run half of a submission), and the
    * child starts a worker of its own when it first submits. */
   void before_fork();
   void after_fork_in_parent();
   void after_fork_in_child();

private:
   static void *run_worker(void *self);
   void worker_loop();

   const bool synchronous_;
   std::mutex lock_;
   std::condition_variable work_ready_, work_done_;
   std::deque<Work> pending_;
   uint64_t submitted_ = 0, completed_ = 0;
   bool worker_running_ = false, stopping_ = false;
   pthread_t worker_{};
};

} // namespace terakan::sim
