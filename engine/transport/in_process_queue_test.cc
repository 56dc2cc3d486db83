// InProcessQueue: two threads with the sleep/doorbell protocol — records arrive in order and
// a sleeping consumer is always woken (a lost wake-up shows as a poll timeout).
#include "engine/transport/in_process_queue.h"

#include <atomic>
#include <random>
#include <string>
#include <thread>

#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport {
namespace {

using testing::CheckFrame;
using testing::FrameSize;
using testing::kLoadDivisor;
using testing::MakeFrame;
using testing::PollFd;

constexpr int kLostWakeupMs = 5000;

struct ConsumerStats {
  uint64_t bad = 0;
  uint64_t sleeps = 0;
  uint64_t timeouts = 0;
};

// Consumes `count` records checking their sequence, sleeping whenever the queue is empty.
void Consume(InProcessQueue* queue, uint64_t count, size_t max_size,
             std::atomic<uint64_t>* consumed, ConsumerStats* stats) {
  for (uint64_t seq = 0; seq < count;) {
    absl::string_view front = queue->Front();
    if (front.empty()) {
      if (queue->PrepareToSleep()) {
        ++stats->sleeps;
        if (!PollFd(queue->wait_fd(), kLostWakeupMs)) ++stats->timeouts;
        queue->WokeUp();
      }
      continue;
    }
    if (front.size() != FrameSize(seq, max_size) || !CheckFrame(front, seq)) ++stats->bad;
    queue->Pop();
    ++seq;
    consumed->store(seq, std::memory_order_release);
  }
}

TEST(InProcessQueueTest, CreateRoundsCapacity) {
  auto queue = InProcessQueue::Create(3000);
  ASSERT_TRUE(queue.ok()) << queue.status();
  EXPECT_EQ((*queue)->max_record_size(), 4096u / 2 - 4);
  EXPECT_TRUE((*queue)->TryPush("abc"));
  EXPECT_EQ((*queue)->Front(), "abc");
}

// Streaming in batches with pauses, so the consumer keeps falling asleep and being woken.
TEST(InProcessQueueTest, StreamWithSleeps) {
  const uint64_t kRecords = 1'000'000 / kLoadDivisor;
  const size_t kMaxSize = 2000;
  auto queue = *InProcessQueue::Create(32 << 10);
  std::atomic<uint64_t> consumed{0};
  ConsumerStats stats;
  std::thread consumer([&] { Consume(queue.get(), kRecords, kMaxSize, &consumed, &stats); });
  std::mt19937 rng(1);
  uint64_t batch_left = 0;
  for (uint64_t seq = 0; seq < kRecords; ++seq) {
    size_t size = FrameSize(seq, kMaxSize);
    uint8_t* p;
    while ((p = queue->Reserve(size)) == nullptr) {
      queue->Flush();  // never wait for room while the consumer may sleep unwoken
      std::this_thread::yield();
    }
    std::string frame = MakeFrame(size, seq);
    std::memcpy(p, frame.data(), size);
    queue->Commit(size);
    if (batch_left == 0) {
      queue->Flush();
      batch_left = rng() % 32;
      if (rng() % 64 == 0) {
        for (int i = 0; i < 50; ++i) std::this_thread::yield();  // let the consumer drain
      }
    } else {
      --batch_left;
    }
  }
  queue->Flush();
  consumer.join();
  EXPECT_EQ(stats.bad, 0u);
  EXPECT_EQ(stats.timeouts, 0u) << "lost wake-ups";
  EXPECT_TRUE(queue->Front().empty());
  std::printf("stream: %llu records, the consumer slept %llu times\n",
              static_cast<unsigned long long>(kRecords),
              static_cast<unsigned long long>(stats.sleeps));
}

// The producer pushes a small batch, flushes and then waits for it to be consumed: any lost
// wake-up stalls the round until the consumer's poll times out.
TEST(InProcessQueueTest, BatchAndWaitNeverLosesAWakeUp) {
  const int kRounds = 100'000 / kLoadDivisor;
  const size_t kMaxSize = 500;
  auto queue = *InProcessQueue::Create(16 << 10);
  std::mt19937 rng(2);
  std::vector<int> batches(kRounds);
  uint64_t total = 0;
  for (int& b : batches) total += (b = 1 + static_cast<int>(rng() % 8));
  std::atomic<uint64_t> consumed{0};
  ConsumerStats stats;
  std::thread consumer([&] { Consume(queue.get(), total, kMaxSize, &consumed, &stats); });
  uint64_t seq = 0;
  for (int batch : batches) {
    for (int i = 0; i < batch; ++i, ++seq) {
      ASSERT_TRUE(queue->TryPush(MakeFrame(FrameSize(seq, kMaxSize), seq)));
    }
    queue->Flush();
    while (consumed.load(std::memory_order_acquire) < seq) std::this_thread::yield();
  }
  consumer.join();
  EXPECT_EQ(stats.bad, 0u);
  EXPECT_EQ(stats.timeouts, 0u) << "lost wake-ups";
  EXPECT_GT(stats.sleeps, 0u);
}

}  // namespace
}  // namespace shoal::transport
