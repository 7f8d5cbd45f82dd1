#include "gpu_queue.h"

#include <csignal>
#include <cstdio>

namespace terakan::sim {

GpuQueue::~GpuQueue()
{
   std::unique_lock<std::mutex> guard(lock_);
   if (!worker_running_)
      return;
   stopping_ = true;
   work_ready_.notify_all();
   guard.unlock();
   pthread_join(worker_, nullptr);
}

uint64_t GpuQueue::submit(Work work, const std::function<void(uint64_t)> &after_queued)
{
   std::unique_lock<std::mutex> guard(lock_);
   const uint64_t sequence = ++submitted_;
   after_queued(sequence);
   if (synchronous_) {
      /* Under the lock: submissions from several threads still run one at a time. */
      work();
      completed_ = sequence;
      work_done_.notify_all();
      return sequence;
   }
   pending_.push_back(std::move(work));
   if (!worker_running_) {
      /* The signal mask of a thread started inside someone else's program is theirs; the
       * worker takes none of its signals. */
      sigset_t all, previous;
      sigfillset(&all);
      pthread_sigmask(SIG_SETMASK, &all, &previous);
      const int failed = pthread_create(&worker_, nullptr, run_worker, this);
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      if (failed) {
         /* No thread: run the work here rather than never. */
         std::fprintf(stderr, "terakan-sim: cannot start the GPU thread; running submissions "
                              "inside the ioctl\n");
         Work now = std::move(pending_.back());
         pending_.pop_back();
         guard.unlock();
         now();
         guard.lock();
         completed_ = sequence;
         work_done_.notify_all();
         return sequence;
      }
      worker_running_ = true;
   }
   work_ready_.notify_one();
   return sequence;
}

void *GpuQueue::run_worker(void *self)
{
   static_cast<GpuQueue *>(self)->worker_loop();
   return nullptr;
}

void GpuQueue::worker_loop()
{
   std::unique_lock<std::mutex> guard(lock_);
   for (;;) {
      work_ready_.wait(guard, [this] { return stopping_ || !pending_.empty(); });
      if (pending_.empty())
         return; /* stopping, and nothing left */
      Work work = std::move(pending_.front());
      pending_.pop_front();
      guard.unlock();
      work();
      guard.lock();
      completed_++;
      work_done_.notify_all();
   }
}

void GpuQueue::wait_for(uint64_t sequence)
{
   std::unique_lock<std::mutex> guard(lock_);
   work_done_.wait(guard, [&] { return completed_ >= sequence; });
}

void GpuQueue::wait_for_all()
{
   std::unique_lock<std::mutex> guard(lock_);
   work_done_.wait(guard, [&] { return completed_ >= submitted_; });
}

bool GpuQueue::has_completed(uint64_t sequence)
{
   std::lock_guard<std::mutex> guard(lock_);
   return completed_ >= sequence;
}

void GpuQueue::before_fork()
{
   std::unique_lock<std::mutex> guard(lock_);
   work_done_.wait(guard, [&] { return completed_ >= submitted_; });
   guard.release(); /* held across fork(); both sides unlock it */
}

void GpuQueue::after_fork_in_parent()
{
   lock_.unlock();
}

void GpuQueue::after_fork_in_child()
{
   /* The parent's worker does not exist here. */
   worker_running_ = false;
   lock_.unlock();
}

} // namespace terakan::sim
