// A stand-in dictionary master for unit tests of the native client and its users: it listens
// on loopback TCP and answers each kDictReq frame with what `answer` returns. It has no
// thread of its own: the test calls Serve() between the client's Polls.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/control/control.pb.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/dictionary.pb.h"
#include "engine/wire/frame.h"

namespace shoal::api::testing {

class FakeMaster {
 public:
  FakeMaster() {
    auto listener = transport::TcpListener::Listen("127.0.0.1", 0);
    if (listener.ok()) listener_ = std::move(*listener);
  }

  bool ok() const { return listener_ != nullptr; }

  // A cluster view in which this is the only data node, started (so the master).
  control::ClusterView View() const {
    control::ClusterView view;
    view.set_version(1);
    control::NodeStatus* node = view.add_nodes();
    node->set_node_id(2);
    node->set_type(control::DATANODE);
    node->set_host("127.0.0.1");
    node->set_state(control::STARTED);
    node->set_node_group(0);
    node->set_data_port(static_cast<uint32_t>(listener_->port()));
    return view;
  }

  // Accepts what connected, reads what arrived and answers it. Does not block.
  void Serve() {
    while (true) {
      auto accepted = listener_->Accept();
      if (!accepted.ok() || *accepted == nullptr) break;
      channels_.push_back(std::move(*accepted));
    }
    for (auto& channel : channels_) {
      if (channel == nullptr || !channel->Receive().ok()) continue;
      for (absl::string_view frame = channel->Peek(); !frame.empty(); frame = channel->Peek()) {
        wire::FrameHeader header;
        absl::string_view body;
        if (wire::DecodeFrame(frame, &header, &body) == wire::DecodeStatus::kOk &&
            header.type == wire::FrameType::kDictReq) {
          wire::DictReq request;
          request.ParseFromArray(body.data(), static_cast<int>(body.size()));
          requests.push_back(request);
          if (std::optional<wire::DictConf> conf = answer(request)) {
            conf->set_tag(request.tag());
            wire::FrameBuilder out;
            out.Begin(wire::FrameType::kDictConf);
            conf->AppendToString(out.buffer());
            out.CountItem();
            out.Finish();
            channel->TryWrite(out.finished());
            (void)channel->Flush();
          }
        }
        channel->Consume();
      }
    }
  }

  // What to answer a request with; nullopt: nothing (the client waits). Answers an empty
  // DictConf by default.
  std::function<std::optional<wire::DictConf>(const wire::DictReq&)> answer =
      [](const wire::DictReq&) { return wire::DictConf(); };
  std::vector<wire::DictReq> requests;  // every request received, in order

 private:
  std::unique_ptr<transport::TcpListener> listener_;
  std::vector<std::unique_ptr<transport::Channel>> channels_;
};

}  // namespace shoal::api::testing
