/// \file
/// The Messages panel: the session's MessageLog as a list, errors in red with
/// a warning icon, scrolled to the newest message as they come.
#pragma once

#include <QListView>

namespace tessel::views {

class Session;

class MessagesView : public QListView {
    Q_OBJECT
public:
    explicit MessagesView(Session* session, QWidget* parent = nullptr);
};

} // namespace tessel::views
